import type { FeedApp } from '@api/contracts/feed';
import { tokenHash } from '@commands/support/secrets';
import type { PermissionKey } from '@domain/access/permissions';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { Kysely } from 'kysely';
import { permissionsOf } from './platform/access-tokens';

/** The integrator feed's apps (commands/apps keeps them): the settings list, and who an API key speaks for. */

const appColumns = [
  'a.id',
  'a.name',
  'a.event_types',
  'a.key_hint',
  'a.created_at',
  'a.key_created_at',
  'a.revoked_at',
  'a.last_used_at',
  'u.first_name',
  'u.last_name',
] as const;

function toApp(row: {
  id: string;
  name: string;
  event_types: string[];
  key_hint: string;
  created_at: Date;
  key_created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  first_name: string | null;
  last_name: string | null;
}): FeedApp {
  return {
    id: row.id,
    name: row.name,
    eventTypes: row.event_types,
    keyHint: row.key_hint,
    createdBy: [row.first_name, row.last_name].filter(Boolean).join(' '),
    createdAt: row.created_at.toISOString(),
    keyCreatedAt: row.key_created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/** The account's apps, newest first. */
export async function listApps(db: Kysely<Database>, tenantId: string): Promise<FeedApp[]> {
  return withTenant(db, tenantId, async (trx) => {
    const rows = await trx
      .selectFrom('feed_apps as a')
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .select(appColumns)
      .where('a.tenant_id', '=', tenantId)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id')
      .execute();
    return rows.map(toApp);
  });
}

export async function findApp(db: Kysely<Database>, tenantId: string, id: string): Promise<FeedApp | null> {
  // Not an app's id (the uuid cast would fail on it): a record nobody has.
  if (!isUuid(id)) return null;
  return withTenant(db, tenantId, async (trx) => {
    const row = await trx
      .selectFrom('feed_apps as a')
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .select(appColumns)
      .where('a.tenant_id', '=', tenantId)
      .where('a.id', '=', id)
      .executeTakeFirst();
    return row ? toApp(row) : null;
  });
}

/** Who an API key speaks for: its app, the app's event types, and the keys its maker holds now. */
export interface AppCaller {
  appId: string;
  tenantId: string;
  eventTypes: readonly string[];
  /** Empty when the maker is no longer an active user of an active account. */
  makerKeys: ReadonlySet<PermissionKey>;
}

/** The app of a key not revoked, or null; looked up before the tenant is known (as the system). */
export async function appOfKey(db: Kysely<Database>, key: string): Promise<AppCaller | null> {
  const row = await db
    .selectFrom('feed_apps as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .leftJoin('user_groups as g', 'g.id', 'u.group_id')
    .innerJoin('tenants as n', 'n.id', 'a.tenant_id')
    .select([
      'a.id',
      'a.tenant_id',
      'a.event_types',
      'u.kind',
      'u.status',
      'u.tenant_id as user_tenant',
      'g.permissions',
      'n.status as tenant_status',
    ])
    .where('a.key_hash', '=', tokenHash(key))
    .where('a.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const active =
    row.status === 'active' && row.tenant_status !== 'suspended' && row.user_tenant === row.tenant_id;
  return {
    appId: row.id,
    tenantId: row.tenant_id,
    eventTypes: row.event_types,
    makerKeys: active ? permissionsOf(row.kind, row.permissions) : new Set(),
  };
}
