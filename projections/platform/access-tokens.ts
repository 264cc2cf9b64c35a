import { tokenHash } from '@commands/support/secrets';
import { isPartnerKind, PARTNER_SCOPES } from '@domain/access/kinds';
import { modulesOf, type PackageModule } from '@domain/access/packages';
import { isPermissionKey, PERMISSION_KEYS, type PermissionKey } from '@domain/access/permissions';
import type { Database, UserKind } from '@infra/db';
import type { Kysely } from 'kysely';

/** Who a bearer token speaks for: its user, account, permission keys and the package's modules. */
export interface Session {
  userId: string;
  tenantId: string | null;
  kind: UserKind;
  permissions: ReadonlySet<PermissionKey>;
  /** The modules the account's package includes (none for the provider's admins). */
  modules: ReadonlySet<PackageModule>;
  tokenHash: string;
}

/** Reads the session a token grants: null when the token is unknown, expired, revoked, or its user not active. */
export async function loadSession(db: Kysely<Database>, token: string): Promise<Session | null> {
  const hash = tokenHash(token);
  const row = await db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('user_groups as g', 'g.id', 'u.group_id')
    .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
    .leftJoin('packages as p', 'p.id', 'n.package_id')
    .select(['u.id', 'u.tenant_id', 'u.kind', 'g.permissions', 'n.status as tenant_status', 'p.flags'])
    .where('t.token_hash', '=', hash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', new Date())
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!row || row.tenant_status === 'suspended') return null;
  return {
    userId: row.id,
    tenantId: row.tenant_id,
    kind: row.kind,
    permissions: permissionsOf(row.kind, row.permissions),
    modules: modulesOf(row.flags),
    tokenHash: hash,
  };
}

/** The keys a user holds: the owner all, a sub-user its group's, a partner its kind's scope. */
export function permissionsOf(
  kind: UserKind,
  groupPermissions: readonly string[] | null,
): ReadonlySet<PermissionKey> {
  if (kind === 'owner') return new Set(PERMISSION_KEYS);
  if (kind === 'subuser') return new Set((groupPermissions ?? []).filter(isPermissionKey));
  if (isPartnerKind(kind)) return new Set(PARTNER_SCOPES[kind]);
  return new Set();
}
