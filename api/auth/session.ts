import { isSellerKind } from '@domain/access/kinds';
import { moduleRefusal, type PackageModule } from '@domain/access/packages';
import type { PermissionKey } from '@domain/access/permissions';
import type { Db } from '@infra/db';
import { runInScope, type TenantScope } from '@infra/db/tenant';
import { type Language, languageOf } from '@infra/i18n';
import { loadSession, type Session } from '@projections/platform/access-tokens';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthorized } from '../errors';

/**
 * Who is calling. Every route declares `config.access`; this plugin refuses a route registered without one, reads the
 * bearer token (opaque, stored hashed), and checks the declared access before the handler runs: a missing, expired or
 * revoked token is a 401, a sub-user without the route's permission key a 403, and a route of a module the account's
 * package leaves out (spec §6 "Package flags gate modules") a 403 with code 450.
 */

export type Access =
  /** Anyone, signed in or not. */
  | 'public'
  /** Any signed-in member of a seller account's staff (owner or sub-user). */
  | 'seller'
  /** The owner of the seller account only (users, groups, package). */
  | 'owner'
  /** The provider's admins and sub-admins (`/admin-login/`). */
  | 'admin'
  /** Anyone signed in, seller or admin. */
  | 'signed-in'
  /** A seller user holding this key (the owner holds every key). */
  | { permission: PermissionKey }
  /** A seller user holding at least one of these keys (a reader of a page shared by several roles). */
  | { anyOf: readonly PermissionKey[] }
  /** An integrator's app, by its API key (the route's plugin checks it: api/feed/app-key.ts). */
  | 'app';

export interface SellerSession extends Session {
  tenantId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The package module the route belongs to: an account whose package leaves it out is refused (403, 450). */
    module?: PackageModule;
  }
  interface FastifyRequest {
    session: Session | null;
    language: Language;
    /** Whom this request's queries run for (infra/db/tenant.ts): filled in once the session is known. */
    tenantScope: TenantScope | null;
  }
}

/** The session of a route declared 'seller', 'owner' or with a permission: the tenant is certain. */
export function seller(request: FastifyRequest): SellerSession {
  const session = request.session;
  if (!session || session.tenantId === null) throw unauthorized();
  return session as SellerSession;
}

export function signedIn(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized();
  return request.session;
}

export { isAdminKind } from '@domain/access/team';
export { loadSession, type Session };

import { isAdminKind } from '@domain/access/team';

/** The bearer token of a request: the Authorization header, or for a browser websocket the `bearer, <token>` subprotocol. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match?.[1];
  }
  const protocols = request.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim());
  if (protocols && protocols[0] === 'bearer' && protocols[1]) return protocols[1];
  return undefined;
}

function check(access: Exclude<Access, 'app'>, session: Session | null): void {
  if (access === 'public') return;
  if (!session) throw unauthorized();
  if (access === 'signed-in') return;
  if (access === 'admin') {
    if (!isAdminKind(session.kind)) throw forbidden();
    return;
  }
  if (isAdminKind(session.kind)) throw forbidden();
  // A partner (supplier, dealer…) passes only the routes of its kind's keys.
  if (access === 'seller') {
    if (!isSellerKind(session.kind)) throw forbidden();
    return;
  }
  if (access === 'owner') {
    if (session.kind !== 'owner') throw forbidden();
    return;
  }
  const keys = 'anyOf' in access ? access.anyOf : [access.permission];
  if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    app.decorateRequest('session', null);
    app.decorateRequest('language', 'en-us');
    app.decorateRequest('tenantScope', null);

    app.addHook('onRoute', (route) => {
      const url = route.url;
      if (url.startsWith('/docs') || !(url.startsWith('/api') || url.startsWith('/oauth'))) return;
      if (route.config?.access === undefined) {
        throw new Error(
          `Route ${route.method} ${url} declares no access: every route must name who may call it.`,
        );
      }
      // The OpenAPI document says which routes need no token.
      if (route.config.access === 'public') route.schema = { ...route.schema, security: [] };
    });

    // The database's tenancy (infra/db/tenant.ts): everything the request runs from here on, its handler included
    // (fastify carries the context through the body's parsing), runs in the request's scope. The token's lookup is
    // made before any tenant is known, so as the system; then a seller's request runs as the app role bound to its
    // tenant, and only the routes cross-tenant by design run as the system: the public ones (sign-in, registration,
    // password reset) and the provider's admins'.
    app.addHook('onRequest', (request, _reply, done) => {
      request.tenantScope = { tenantId: null, system: true };
      runInScope(request.tenantScope, done);
    });

    app.addHook('onRequest', async (request) => {
      request.language = languageOf(request.headers.language ?? request.headers['accept-language']);
      const access = request.routeOptions.config.access;
      const scope = request.tenantScope!;
      // A route outside the API (the console's files, /docs) reads no tenant's rows.
      scope.system = false;
      if (access === undefined || access === 'app') return;
      const token = bearerToken(request);
      scope.system = true;
      if (token) request.session = await loadSession(opts.db, token);
      scope.system = access === 'public' || (request.session !== null && isAdminKind(request.session.kind));
      scope.tenantId = request.session?.tenantId ?? null;
      if (token && !request.session && access !== 'public') throw unauthorized('auth.token_invalid');
      check(access, request.session);
      const module = request.routeOptions.config.module;
      if (module && !request.session?.modules.has(module)) {
        const refusal = moduleRefusal(module);
        throw new ApiError(refusal.status, refusal.code, refusal.key);
      }
    });
  },
  { name: 'kedai-session' },
);

export { ApiError };
