import { randomUUID } from 'node:crypto';
import type { NewSubUser, SubUserChanges, TeamUser } from '@api/contracts/team';
import { ACCOUNT_USER_KINDS } from '@domain/access/kinds';
import { PackageLimits } from '@domain/access/packages';
import { refuseTeam } from '@domain/access/team';
import { isUuid } from '@domain/platform/ids';
import { type FieldRefusal, refusedTogether } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { findTeamUser } from '@projections/team/users';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { hashSecret } from '../support/secrets';

/**
 * The users of a seller account: created, edited, deactivated and deleted by the owner only. A sub-user belongs to
 * one group of the account, whose keys are their permissions; a partner (supplier, dealer…, domain/access/kinds.ts)
 * holds the fixed scope of their kind and no group. The package caps how many sub-users an account has: every
 * sub-user counts, active or not, so reactivating one never needs a free slot (the usage panel counts the same way).
 * Deactivating a user, changing their password or deleting them revokes their tokens at once.
 */

export interface TeamDeps {
  db: Kysely<Database>;
}

/** Turns a unique or foreign-key violation into the refusal it means; anything else is passed on. */
function refusalFor(error: unknown, values: { username?: string; email?: string }): unknown {
  if (violation(error, '23505', 'users_username_idx'))
    return refuseTeam('USERNAME_TAKEN', { username: values.username ?? '' });
  if (violation(error, '23505', 'users_email_idx'))
    return refuseTeam('EMAIL_TAKEN', { email: values.email ?? '' });
  if (violation(error, '23503', 'users_group_id_fkey')) return refuseTeam('GROUP_NOT_FOUND');
  return error;
}

/**
 * The username and e-mail must be free and a sub-user's group the account's own: every problem in the same answer.
 * The account sees only its own users; the unique indexes still refuse a name another account holds.
 */
async function checkUser(
  db: Kysely<Database>,
  tenantId: string,
  values: { username?: string | undefined; email?: string | undefined; group_id?: string | null | undefined },
  /** The user being changed, who keeps their own name and address. */
  self?: string,
): Promise<void> {
  const problems: FieldRefusal[] = [];
  for (const field of ['username', 'email'] as const) {
    const value = values[field];
    if (value === undefined) continue;
    let same = db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb(eb.fn('lower', [field]), '=', value.toLowerCase()));
    if (self !== undefined) same = same.where('id', '!=', self);
    if (await same.executeTakeFirst())
      problems.push({
        field,
        error:
          field === 'username'
            ? refuseTeam('USERNAME_TAKEN', { username: value })
            : refuseTeam('EMAIL_TAKEN', { email: value }),
      });
  }
  const groupId = values.group_id;
  if (groupId !== undefined && groupId !== null) {
    const group = isUuid(groupId)
      ? await db
          .selectFrom('user_groups')
          .select('id')
          .where('id', '=', groupId)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst()
      : undefined;
    if (!group) problems.push({ field: 'group_id', error: refuseTeam('GROUP_NOT_FOUND') });
  }
  const refused = refusedTogether(problems);
  if (refused) throw refused;
}

async function revokeTokens(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The user row to change, locked; the owner is refused, another account's user is missing. */
async function lockSubUser(trx: Kysely<Database>, tenantId: string, id: string) {
  const user = isUuid(id)
    ? await trx
        .selectFrom('users')
        .select(['id', 'kind', 'status', 'group_id', 'username', 'email'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .where('kind', 'in', ACCOUNT_USER_KINDS)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!user) throw refuseTeam('NOT_FOUND');
  if (user.kind === 'owner') throw refuseTeam('OWNER_NOT_EDITABLE');
  return user;
}

async function answer(db: Kysely<Database>, tenantId: string, id: string): Promise<TeamUser> {
  const user = await findTeamUser(db, tenantId, id);
  if (!user) throw refuseTeam('NOT_FOUND');
  return user;
}

/** A new sub-user (within the package's sub-user limit) or partner. */
export async function createSubUser({ db }: TeamDeps, actor: Actor, input: NewSubUser): Promise<TeamUser> {
  const { tenantId } = actor;
  // Hashing is slow on purpose: done before the transaction, so the account's lock is held briefly.
  const passwordHash = await hashSecret(input.password);
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      // One creation at a time per account, so two requests cannot both take the last free slot.
      await trx
        .selectFrom('tenants')
        .select('id')
        .where('id', '=', tenantId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const groupId = input.kind === 'subuser' ? (input.group_id ?? '') : null;
      await checkUser(trx, tenantId, { username: input.username, email: input.email, group_id: groupId });
      const pkg = await trx
        .selectFrom('tenants as n')
        .innerJoin('packages as p', 'p.id', 'n.package_id')
        .select(['p.name', 'p.limits'])
        .where('n.id', '=', tenantId)
        .executeTakeFirstOrThrow();
      const limit = PackageLimits.parse(pkg.limits).subUsers;
      if (input.kind === 'subuser' && limit !== null) {
        const count = await trx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('kind', '=', 'subuser')
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= limit) throw refuseTeam('SUB_USER_LIMIT', { package: pkg.name, limit });
      }
      await trx
        .insertInto('users')
        .values({
          id,
          tenant_id: tenantId,
          kind: input.kind,
          username: input.username,
          email: input.email,
          first_name: input.first_name,
          last_name: input.last_name,
          phone: input.phone,
          password_hash: passwordHash,
          status: input.status,
          group_id: groupId,
          // The owner vouches for the address; the sub-user signs in with it or the username at once.
          email_verified_at: new Date(),
        })
        .execute();
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'user.created',
        subjectType: 'user',
        subjectId: id,
        detail: {
          kind: input.kind,
          username: input.username,
          email: input.email,
          group_id: groupId,
          status: input.status,
        },
      });
    });
  } catch (error) {
    throw refusalFor(error, input);
  }
  return answer(db, tenantId, id);
}

/** An edit of a sub-user's details, group, status or password (deactivation revokes their tokens). */
export async function updateSubUser(
  { db }: TeamDeps,
  actor: Actor,
  input: { id: string; changes: SubUserChanges },
): Promise<TeamUser> {
  const { tenantId } = actor;
  const { id } = input;
  const { password, confirm_password: _confirmation, ...changes } = input.changes;
  const passwordHash = password === undefined ? undefined : await hashSecret(password);
  try {
    await db.transaction().execute(async (trx) => {
      const before = await lockSubUser(trx, tenantId, id);
      // A partner's permissions are their kind's: no group gives them more.
      if (changes.group_id !== undefined && before.kind !== 'subuser') throw refuseTeam('GROUP_NOT_FOUND');
      await checkUser(
        trx,
        tenantId,
        { username: changes.username, email: changes.email, group_id: changes.group_id },
        id,
      );
      await trx
        .updateTable('users')
        .set({
          ...changes,
          ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
      const deactivated = changes.status === 'inactive' && before.status !== 'inactive';
      const tokensRevoked = deactivated || passwordHash !== undefined;
      if (tokensRevoked) await revokeTokens(trx, id);
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'user.updated',
        subjectType: 'user',
        subjectId: id,
        detail: {
          fields: [...Object.keys(changes), ...(passwordHash === undefined ? [] : ['password'])],
          ...(changes.status !== undefined && changes.status !== before.status
            ? { status: { from: before.status, to: changes.status } }
            : {}),
          ...(changes.group_id !== undefined && changes.group_id !== before.group_id
            ? { group_id: { from: before.group_id, to: changes.group_id } }
            : {}),
          tokens_revoked: tokensRevoked,
        },
      });
    });
  } catch (error) {
    throw refusalFor(error, changes);
  }
  return answer(db, tenantId, id);
}

/** A sub-user deleted; their tokens stop working at once. */
export async function deleteSubUser(
  { db }: TeamDeps,
  actor: Actor,
  input: { id: string },
): Promise<{ id: string }> {
  const { id } = input;
  await db.transaction().execute(async (trx) => {
    const user = await lockSubUser(trx, actor.tenantId, id);
    await revokeTokens(trx, id);
    await trx.deleteFrom('users').where('id', '=', id).execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'user.deleted',
      subjectType: 'user',
      subjectId: id,
      detail: { username: user.username, email: user.email },
    });
  });
  return { id };
}
