import type { Access } from '@api/auth/session';
import { ErrorAnswer, Ok, refusals } from '@api/contracts/common';
import type { PackageModule } from '@domain/access/packages';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * One route in one statement: who may call it, its contract's shapes, and the handler. The answer is the spec's
 * `{ code: 0, msg, data }` around `answer`; every authenticated route may refuse with 400/401/403/404, and `errors`
 * adds the route's others (409, 413, 503…). A route that answers a file, not JSON, declares its own `response` with
 * `raw`. A router carries its context's OpenAPI tags and default access, so each route names only what differs.
 */

type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  // biome-ignore lint/suspicious/noExplicitAny: the logger type of whichever instance registers the plugin
  any,
  ZodTypeProvider
>;

type Shape = z.ZodType;
type Out<S> = S extends Shape ? z.output<S> : unknown;

export interface RouteSpec<P, Q, B, A> {
  summary: string;
  description?: string;
  /** Defaults to the router's. */
  access?: Access;
  /** The package module the route belongs to (spec §6 package flags); defaults to the router's. */
  module?: PackageModule;
  params?: P;
  query?: Q;
  body?: B;
  /** The `data` of a success answer. */
  answer?: A;
  /** A whole response map instead of `{ 200: Ok(answer) }` (a file download, a bare callback answer). */
  raw?: Record<number, Shape>;
  /** Refusals beyond the common 400/401/403/404, by status. */
  errors?: Record<number, Shape>;
  bodyLimit?: number;
  hide?: boolean;
}

export type RouteRequest<P, Q, B> = FastifyRequest<{ Params: Out<P>; Querystring: Out<Q>; Body: Out<B> }>;

type Handler<P, Q, B, A> = (
  request: RouteRequest<P, Q, B>,
  reply: FastifyReply,
) => Promise<(A extends Shape ? { code: 0; msg: string; data: z.input<A> } : unknown) | FastifyReply>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A state that moved on (409). */
export const conflict = { 409: ErrorAnswer } as const;
/** A state that moved on (409), and a workflow service that cannot be reached (503). */
export const conflicts = { ...conflict, 503: ErrorAnswer } as const;

export function router(app: ZodApp, defaults: { tags: string[]; access?: Access; module?: PackageModule }) {
  const add =
    (method: Method) =>
    <
      P extends Shape | undefined = undefined,
      Q extends Shape | undefined = undefined,
      B extends Shape | undefined = undefined,
      A extends Shape | undefined = undefined,
    >(
      url: string,
      spec: RouteSpec<P, Q, B, A>,
      handler: Handler<P, Q, B, A>,
    ) => {
      const access = spec.access ?? defaults.access;
      if (access === undefined) throw new Error(`Route ${method} ${url} declares no access.`);
      const module = spec.module ?? defaults.module;
      const response = spec.raw ?? { 200: Ok(spec.answer as Shape), ...refusals, ...spec.errors };
      app.route({
        method,
        url,
        config: { access, ...(module === undefined ? {} : { module }) },
        ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
        schema: {
          tags: defaults.tags,
          summary: spec.summary,
          ...(spec.description === undefined ? {} : { description: spec.description }),
          ...(spec.hide ? { hide: true } : {}),
          ...(spec.params === undefined ? {} : { params: spec.params }),
          ...(spec.query === undefined ? {} : { querystring: spec.query }),
          ...(spec.body === undefined ? {} : { body: spec.body }),
          response,
        },
        handler: handler as never,
      });
    };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
}
