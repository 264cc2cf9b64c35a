import { randomUUID } from 'node:crypto';
import type { AppWithKey, NewApp } from '@api/contracts/feed';
import type { PermissionKey } from '@domain/access/permissions';
import { appScope } from '@domain/feed/apps';
import { refuseFeed } from '@domain/feed/errors';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { findApp } from '@projections/feed-apps.queries';
import { type Kysely, sql } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { newToken, tokenHash } from '../support/secrets';

/**
 * The integrator feed's apps: a name, the event types it may read, and an API key shown once (only its SHA-256 is
 * kept, like an access token's). Rotating makes a new key and the old one stops at once; revoking stops the app for
 * good. Each change is a row of the activity log.
 */

export interface AppsDeps {
  db: Kysely<Database>;
}

/** The caller as the apps see it: who makes the app, and the keys it will act with. */
export interface AppMaker extends Actor {
  permissions: ReadonlySet<PermissionKey>;
}

/** `kedai_` marks the key in a leaked file or a secret scanner's rules; the rest is 256 random bits. */
const newAppKey = () => `kedai_${newToken()}`;
const hintOf = (key: string) => `${key.slice(0, 10)}…`;

async function withKey(deps: AppsDeps, tenantId: string, id: string, key: string): Promise<AppWithKey> {
  const app = await findApp(deps.db, tenantId, id);
  if (!app) throw refuseFeed('APP_NOT_FOUND');
  return { ...app, key };
}

export async function createApp(deps: AppsDeps, actor: AppMaker, input: NewApp): Promise<AppWithKey> {
  const { name, eventTypes } = appScope(input, actor.permissions);
  const id = randomUUID();
  const key = newAppKey();
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    await trx
      .insertInto('feed_apps')
      .values({
        tenant_id: actor.tenantId,
        id,
        name,
        event_types: eventTypes,
        created_by: actor.userId,
        key_hash: tokenHash(key),
        key_hint: hintOf(key),
      })
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'app.created',
      subjectType: 'feed_app',
      subjectId: id,
      detail: { name, eventTypes },
    });
  });
  return withKey(deps, actor.tenantId, id, key);
}

/** A new key for the app; the old one stops working at once. A revoked app stays revoked. */
export async function rotateAppKey(deps: AppsDeps, actor: Actor, input: { id: string }): Promise<AppWithKey> {
  const key = newAppKey();
  await changeApp(deps, actor, input.id, 'app.key_rotated', async (trx) => {
    await trx
      .updateTable('feed_apps')
      .set({ key_hash: tokenHash(key), key_hint: hintOf(key), key_created_at: new Date() })
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', input.id)
      .execute();
  });
  return withKey(deps, actor.tenantId, input.id, key);
}

/** The app's key stops working for good. */
export async function revokeApp(deps: AppsDeps, actor: Actor, input: { id: string }) {
  await changeApp(deps, actor, input.id, 'app.revoked', async (trx) => {
    await trx
      .updateTable('feed_apps')
      .set({ revoked_at: new Date() })
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', input.id)
      .execute();
  });
  const app = await findApp(deps.db, actor.tenantId, input.id);
  if (!app) throw refuseFeed('APP_NOT_FOUND');
  return app;
}

/** Locks the app (a rotation racing a revocation waits), refuses a missing or revoked one, changes it, logs it. */
async function changeApp(
  deps: AppsDeps,
  actor: Actor,
  id: string,
  action: string,
  change: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  if (!isUuid(id)) throw refuseFeed('APP_NOT_FOUND');
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    const app = await trx
      .selectFrom('feed_apps')
      .select(['name', 'revoked_at'])
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!app) throw refuseFeed('APP_NOT_FOUND');
    if (app.revoked_at) throw refuseFeed('APP_REVOKED');
    await change(trx);
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action,
      subjectType: 'feed_app',
      subjectId: id,
      detail: { name: app.name },
    });
  });
}

/** When the app last read the feed, to the minute (a read a second would otherwise write a row a second). */
export async function recordAppUse(deps: AppsDeps, caller: { tenantId: string; appId: string }) {
  await withTenant(deps.db, caller.tenantId, (trx) =>
    trx
      .updateTable('feed_apps')
      .set({ last_used_at: new Date() })
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', caller.appId)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
        ]),
      )
      .execute(),
  );
}
