import type { SellerSession } from '@api/auth/session';
import type { GoodsIssueDeps } from '@commands/goods-issue/support';
import { PERMISSION_AREAS, type PermissionKey } from '@domain/access/permissions';
import { GIN_MANAGE_KEY } from '@domain/goods-issue/decider';

/** What the goods issue routes share: their tags and deps, and who may see and change notes. */

export const tags = ['inventory-goods-issue'];

export type { GoodsIssueDeps };

export const LAYER_KEYS = PERMISSION_AREAS.goodsIssueNotes;

/** Creating, editing, submitting a note takes stock out like an adjustment: the same key. */
export const MANAGE_KEY: PermissionKey = GIN_MANAGE_KEY as PermissionKey;

/** Notes and the approval settings are seen by holders of any inventory key or any approval layer key. */
export const VIEW_KEYS: readonly PermissionKey[] = [...PERMISSION_AREAS.inventory, ...LAYER_KEYS];

/** The caller's approval layer keys, as the workflow checks them. */
export const layerKeysOf = (session: SellerSession): string[] =>
  LAYER_KEYS.filter((key) => session.permissions.has(key));

/** The caller as a note's detail sees them: which keys they hold decides the actions it offers. */
export const viewerOf = (session: SellerSession) => ({
  tenantId: session.tenantId,
  userId: session.userId,
  holds: (key: string) => session.permissions.has(key as PermissionKey),
});
