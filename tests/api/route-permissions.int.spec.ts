import type { Access } from '@api/auth/session';
import {
  isPermissionKey,
  PERMISSION_AREAS,
  PERMISSION_KEYS,
  type PermissionKey,
} from '@domain/access/permissions';
import { createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every route of the API names the permission key of shell.md §6 it needs, read from Fastify's own route table, so a
 * new route cannot forget its key. If this fails for your route:
 * - give it `access: { permission: '<key>' }` (or `{ anyOf: [...] }`) with keys of domain/access/permissions.ts;
 * - or, when no key fits because the route belongs to everyone signed in, to the account's owner alone, to the
 *   provider's admins or to the public, add it to WITHOUT_KEY below, with the reason.
 */

type Unkeyed = Exclude<Access, { permission: PermissionKey } | { anyOf: readonly PermissionKey[] }>;

/**
 * Routes without a key, by `METHOD /path` (`*` for any method; a path ending in `*` covers what starts with it),
 * with the access they declare and why no key applies.
 */
const WITHOUT_KEY: Record<string, { access: readonly Unkeyed[]; why: string }> = {
  'GET /api/health': { access: ['public'], why: 'monitors ask whether Kedai is up' },
  'GET /api/feed/events': {
    access: ['app'],
    why: "an integrator's app, by its API key: the keys of the user who made it are checked on every call",
  },
  'GET /api/health/detail': { access: ['admin'], why: "the provider's view of every component" },
  'POST /oauth/token': { access: ['public'], why: 'signing in' },
  'POST /api/sign-in/unlock': { access: ['public'], why: 'the link mailed after too many failed sign-ins' },
  '* /api/register*': { access: ['public'], why: 'self-registration (spec §2 /register)' },
  '* /api/password/*': { access: ['public'], why: 'password reset (spec §2 /reset-password)' },
  '* /api/pos-pin/*': { access: ['public'], why: 'POS app PIN reset (spec §2 /reset-pos-app-pin)' },
  'GET /settings/store/*': {
    access: ['public'],
    why: "the browser's way back from a marketplace, redirected into the console (which checks the key)",
  },
  'POST /api/logout': { access: ['signed-in'], why: "ends the caller's own session" },
  'GET /api/user/info': { access: ['signed-in'], why: 'the caller themself (spec §7)' },
  '* /api/user/profile': { access: ['signed-in'], why: "the caller's own name and phone (user settings)" },
  'POST /api/user/password': {
    access: ['signed-in'],
    why: "the caller's own password, checked against the current one",
  },
  'PUT /api/user/language': { access: ['signed-in'], why: "the caller's own language" },
  '* /api/setting/company': {
    access: ['owner'],
    why: "the account's own name, address and contact, printed on its documents",
  },
  'GET /api/info/permission': { access: ['signed-in'], why: "the caller's own permission map (spec §7)" },
  'GET /api/info/table_settings': { access: ['signed-in'], why: "the caller's own grid settings (spec §7)" },
  'POST /api/info/save_table_settings': {
    access: ['signed-in'],
    why: "the caller's own grid settings (spec §7)",
  },
  'GET /api/info/usage': {
    access: ['seller'],
    why: "the header's usage-limit panel every user of the account sees (spec §2)",
  },
  'GET /api/live': {
    access: ['signed-in'],
    why: 'change notices only (ids); what changed is read through the keyed routes',
  },
  'GET /api/lookup/*': {
    access: ['signed-in', 'public'],
    why: 'reference tables (countries and platforms before sign-up too)',
  },
  '* /api/announcement*': {
    access: ['seller'],
    why: 'announcements reach every user of the account (spec §3)',
  },
  '* /api/admin/*': { access: ['admin'], why: "the provider's admin area (spec §2 /admin-settings/)" },
  'GET /api/setting/permission-keys': {
    access: ['seller'],
    why: 'the catalogue of keys and their labels, no account data',
  },
  '* /api/setting/users*': {
    access: ['owner'],
    why: 'the owner manages the sub-users (spec §3 Permissions)',
  },
  '* /api/setting/groups*': { access: ['owner'], why: 'the owner sets what each group may do' },
  'PUT /api/inventory/settings': { access: ['owner'], why: "the account's stock rules" },
  'PUT /api/inventory/approval-settings': { access: ['owner'], why: 'who approves goods issue notes' },
  'PUT /api/purchases/settings': { access: ['owner'], why: "the account's purchase approval rule" },
};

/**
 * Keys no route asks for yet, because their screens arrive with later domains (or, for the one-print limits, because
 * they restrict what another key allows: commands/printing/print.ts). Any other key guards at least one route.
 */
const AWAITING_A_ROUTE: readonly PermissionKey[] = [
  // restrictions of what another key allows, enforced inside printing
  'orders-awb-one-print-limit',
  'orders-do-one-print-limit',
  // dropshipping, sales and POS, customers, billing, chat, the mobile and warehouse apps: later domains
  'orders-dropship',
  ...PERMISSION_AREAS.sales,
  ...PERMISSION_AREAS.other,
  ...PERMISSION_AREAS.supplierDropship,
  ...PERMISSION_AREAS.fulfillment,
  ...PERMISSION_AREAS.chat,
  ...PERMISSION_AREAS.dashboard,
  ...PERMISSION_AREAS.mobileScan,
  ...PERMISSION_AREAS.warehouseApp,
  ...PERMISSION_AREAS.pos,
  ...PERMISSION_AREAS.misc,
];

interface RouteRow {
  route: string;
  access: Access | undefined;
}

function matches(pattern: string, route: string): boolean {
  const [method, path] = pattern.split(' ') as [string, string];
  const [routeMethod, routePath] = route.split(' ') as [string, string];
  if (method !== '*' && method !== routeMethod) return false;
  return path.endsWith('*') ? routePath.startsWith(path.slice(0, -1)) : path === routePath;
}

const keysOf = (access: Access | undefined): readonly string[] | null =>
  access !== undefined && typeof access === 'object'
    ? 'anyOf' in access
      ? access.anyOf
      : [access.permission]
    : null;

describe('every route names its permission key (shell.md §6)', () => {
  let api: TestApi;
  const routes: RouteRow[] = [];

  beforeAll(async () => {
    api = await createTestApi({
      // Registered before the app's plugins load, so it sees every route they add.
      register: (app) =>
        app.addHook('onRoute', (route) => {
          for (const method of [route.method].flat()) {
            // HEAD answers what GET does; /docs is the OpenAPI document's own viewer.
            if (method === 'HEAD' || route.url.startsWith('/docs')) continue;
            routes.push({ route: `${method} ${route.url}`, access: route.config?.access });
          }
        }),
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('sees the whole route table', () => {
    expect(routes.length).toBeGreaterThan(200);
    expect(routes.map((row) => row.route)).toEqual(
      expect.arrayContaining(['POST /oauth/token', 'GET /api/orders', 'POST /api/orders/actions']),
    );
  });

  it('gives each route a key of the spec, or a reason on WITHOUT_KEY', () => {
    const problems: string[] = [];
    for (const { route, access } of routes) {
      const keys = keysOf(access);
      if (keys) {
        if (keys.length === 0) problems.push(`${route}: an empty list of keys lets nobody in`);
        for (const key of keys.filter((key) => !isPermissionKey(key)))
          problems.push(`${route}: '${key}' is not a key of shell.md §6 (domain/access/permissions.ts)`);
        continue;
      }
      const listed = Object.entries(WITHOUT_KEY).find(([pattern]) => matches(pattern, route));
      if (!listed)
        problems.push(
          `${route} (access ${JSON.stringify(access)}) names no permission key: give it its key, or list it in WITHOUT_KEY with the reason`,
        );
      else if (!listed[1].access.includes(access as Unkeyed))
        problems.push(
          `${route} declares ${JSON.stringify(access)}, but WITHOUT_KEY '${listed[0]}' allows ${listed[1].access.join(' or ')}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('has no reason on WITHOUT_KEY for a route that is gone', () => {
    const stale = Object.keys(WITHOUT_KEY).filter(
      (pattern) => !routes.some(({ route }) => matches(pattern, route)),
    );
    expect(stale).toEqual([]);
  });

  it('enforces every key whose screen exists: each guards a route, or awaits its screen', () => {
    const used = new Set(routes.flatMap(({ access }) => keysOf(access) ?? []));
    const unguarded = PERMISSION_KEYS.filter((key) => !used.has(key) && !AWAITING_A_ROUTE.includes(key));
    expect(unguarded).toEqual([]);
  });
});
