import { GridPage, ok } from '@api/answers';
import { seller, signedIn } from '@api/auth/session';
import { ActivityEntry, ActivityLogQuery, SignInEntry, SignInLogQuery } from '@api/contracts/activity';
import { CompanyBody, PrintSettingsAnswer } from '@api/contracts/printing';
import { LanguageChange, PasswordChange, PasswordChanged, ProfileChanges } from '@api/contracts/profile';
import { UserInfo } from '@api/contracts/session';
import { unauthorized } from '@api/errors';
import { router } from '@api/route';
import { changeLanguage, changePassword, changeProfile } from '@commands/accounts/profile';
import { changeCompany, printSettingsOf } from '@commands/printing/print-settings';
import type { Db } from '@infra/db';
import { userInfo } from '@projections/platform/session';
import { listActivity, listSignIns } from '@projections/team/activity.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The header menu's user settings (any signed-in user, on themselves), Settings → company (the owner), and the
 * account's audit screens `/user-activities-logs` and `/login_access/list` (spec §6's `activity-logs` key).
 */

export const accountRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['users'], access: 'signed-in' });

  const self = (request: FastifyRequest) => {
    const session = signedIn(request);
    return { userId: session.userId, tenantId: session.tenantId, tokenHash: session.tokenHash };
  };
  const me = async (request: FastifyRequest) => {
    const info = await userInfo(db, signedIn(request).userId);
    if (!info) throw unauthorized();
    return info;
  };

  route.put(
    '/api/user/profile',
    { summary: 'Change my own name or phone', body: ProfileChanges, answer: UserInfo },
    async (request) => {
      await changeProfile({ db }, self(request), request.body);
      return ok(request, await me(request), 'profile.saved');
    },
  );

  route.post(
    '/api/user/password',
    {
      summary: 'Change my own password (the current one checked); my other sign-ins end',
      body: PasswordChange,
      answer: PasswordChanged,
    },
    async (request) =>
      ok(request, await changePassword({ db }, self(request), request.body), 'profile.password_changed'),
  );

  route.put(
    '/api/user/language',
    { summary: 'Choose my console language', body: LanguageChange, answer: UserInfo },
    async (request) => {
      await changeLanguage({ db }, self(request), request.body);
      return ok(request, await me(request), 'profile.language_saved');
    },
  );

  route.get(
    '/api/setting/company',
    {
      summary: 'The company details and logo printed documents carry',
      access: 'owner',
      answer: PrintSettingsAnswer,
    },
    async (request) => ok(request, await printSettingsOf(db, seller(request).tenantId)),
  );

  route.put(
    '/api/setting/company',
    {
      summary:
        'Change the company details printed documents carry (the logo: PUT /api/orders/print-settings/logo)',
      access: 'owner',
      body: CompanyBody,
      answer: PrintSettingsAnswer,
    },
    async (request) => ok(request, await changeCompany(db, seller(request), request.body), 'company.saved'),
  );

  route.get(
    '/api/user-activities-logs',
    {
      summary: "The account's activity log for ag-grid: filters by user, action and date",
      access: { permission: 'activity-logs' },
      query: ActivityLogQuery,
      answer: GridPage(ActivityEntry),
    },
    async (request) => ok(request, await listActivity(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/login_access/list',
    {
      summary: "Sign-ins of the account's users: time, address, device and result",
      access: { permission: 'activity-logs' },
      query: SignInLogQuery,
      answer: GridPage(SignInEntry),
    },
    async (request) => ok(request, await listSignIns(db, seller(request).tenantId, request.query)),
  );
};
