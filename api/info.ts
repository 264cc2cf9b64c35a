import { ok } from '@api/answers';
import { signedIn } from '@api/auth/session';
import { PermissionMap, TableSettings, UsageAnswer, UserInfo } from '@api/contracts/session';
import { unauthorized } from '@api/errors';
import { router } from '@api/route';
import { saveTableSettings } from '@commands/platform/table-settings';
import { permissionMap } from '@domain/access/permissions';
import type { Db } from '@infra/db';
import { tableSettings, usage, userInfo } from '@projections/platform/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The session calls of spec §7 the console makes after signing in (any signed-in user; the usage panel, a seller's):
 * who am I, what may I do, my table settings, and the header's usage-limit panel.
 */

const MAX_SETTINGS_BYTES = 256 * 1024;

export const infoRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['session'], access: 'signed-in' });

  route.get('/api/user/info', { summary: 'The signed-in user', answer: UserInfo }, async (request) => {
    const info = await userInfo(db, signedIn(request).userId);
    if (!info) throw unauthorized();
    return ok(request, info);
  });

  route.get(
    '/api/info/permission',
    { summary: 'The permission map of spec §6: every key, true where granted', answer: PermissionMap },
    async (request) => ok(request, permissionMap(signedIn(request).permissions)),
  );

  route.get(
    '/api/info/table_settings',
    { summary: "The user's table settings", answer: TableSettings },
    async (request) => ok(request, await tableSettings(db, signedIn(request).userId)),
  );

  route.post(
    '/api/info/save_table_settings',
    {
      summary: 'Replace the table settings; the answer is what is now stored',
      bodyLimit: MAX_SETTINGS_BYTES,
      body: TableSettings,
      answer: TableSettings,
    },
    async (request) =>
      ok(request, await saveTableSettings({ db }, signedIn(request), request.body), 'common.saved'),
  );

  route.get(
    '/api/info/usage',
    {
      summary: "The usage-limit panel: what the seller's package allows and how much is used",
      access: 'seller',
      answer: UsageAnswer,
    },
    async (request) => ok(request, await usage(db, signedIn(request).tenantId!)),
  );
};
