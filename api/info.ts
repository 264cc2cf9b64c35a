import { saveTableSettings } from '@commands/platform/table-settings';
import { permissionMap } from '@domain/access/permissions';
import type { Db } from '@infra/db';
import { tableSettings, usage, userInfo } from '@projections/platform/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Ok, ok, refusals } from './answers';
import { signedIn } from './auth/session';
import { PermissionMap, TableSettings, UsageAnswer, UserInfo } from './contracts/session';
import { unauthorized } from './errors';

/**
 * The session calls of spec §7 the console makes after signing in: who am I, what may I do, my table settings
 * (saving answers with what is now stored, which the console keeps), and the header's usage-limit panel.
 */

const MAX_SETTINGS_BYTES = 256 * 1024;

export const infoRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/user/info',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user',
        response: { 200: Ok(UserInfo), ...refusals },
      },
    },
    async (request) => {
      const info = await userInfo(db, signedIn(request).userId);
      if (!info) throw unauthorized();
      return ok(request, info);
    },
  );

  app.get(
    '/api/info/permission',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: 'The permission map of spec §6: every key, true where granted',
        response: { 200: Ok(PermissionMap), ...refusals },
      },
    },
    async (request) => ok(request, permissionMap(signedIn(request).permissions)),
  );

  app.get(
    '/api/info/table_settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: "The user's table settings",
        response: { 200: Ok(TableSettings), ...refusals },
      },
    },
    async (request) => ok(request, await tableSettings(db, signedIn(request).userId)),
  );

  app.post(
    '/api/info/save_table_settings',
    {
      config: { access: 'signed-in' },
      bodyLimit: MAX_SETTINGS_BYTES,
      schema: {
        tags: ['session'],
        summary: 'Replace the table settings; the answer is what is now stored',
        body: TableSettings,
        response: { 200: Ok(TableSettings), ...refusals },
      },
    },
    async (request) =>
      ok(request, await saveTableSettings({ db }, signedIn(request), request.body), 'common.saved'),
  );

  app.get(
    '/api/info/usage',
    {
      config: { access: 'seller' },
      schema: {
        tags: ['session'],
        summary: "The usage-limit panel: what the seller's package allows and how much is used",
        response: { 200: Ok(UsageAnswer), ...refusals },
      },
    },
    async (request) => ok(request, await usage(db, signedIn(request).tenantId!)),
  );
};
