import type { SignInLimits } from '@commands/accounts/sign-in-limits';
import { defaultSignInLimits } from '@commands/accounts/sign-in-limits';
import type { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import type { TargetPolicy } from '@commands/webhooks/targets';
import { refusalOf } from '@domain/shared/errors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { defaultTimeouts, type HttpTimeouts, type TrustProxy } from '@infra/config';
import type { EventStore } from '@infra/eventstore/port';
import { hasMessage, languageOf, type MessageParams, translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import { serverAuditKey } from '@projections/audit-signed-csv';
import type { LiveHub } from '@projections/runtime/live-hub';
import { stockLevel } from '@projections/stock';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { recoveryRoutes } from './accounts/recovery';
import { registrationRoutes } from './accounts/registration';
import { adminReportRoutes } from './admin-reports';
import { announcementRoutes } from './announcements';
import type { ErrorAnswer } from './answers';
import { auditRoutes } from './audit';
import { type AuthDeps, authRoutes } from './auth/routes';
import { sessionPlugin } from './auth/session';
import { categoryRoutes } from './categories';
import { channelRoutes } from './channels';
import { ruleOf } from './contracts/rules';
import { dashboardRoutes } from './dashboard';
import { refusalAnswer, refusalErrors } from './errors';
import { feedRoutes } from './feed';
import { appRoutes } from './feed/apps';
import type { RateLimit } from './feed/rate-limit';
import { goodsIssueRoutes } from './goods-issue';
import { type HealthDeps, healthRoutes } from './health';
import { infoRoutes } from './info';
import { inventoryRoutes, type StockOf } from './inventory';
import { barcodeRoutes } from './inventory/barcode';
import { stockRoutes } from './inventory/stock';
import { initialStockReceiver } from './inventory/stock-common';
import { listingRoutes } from './listings';
import { listingUploadRoutes } from './listings/upload';
import { type LiveDeps, liveProtocol, liveRoutes } from './live';
import { lookupRoutes } from './lookups';
import { orderRoutes } from './orders';
import { batchRoutes } from './orders/batches';
import { manifestRoutes } from './orders/manifests';
import { printingRoutes } from './orders/print';
import { returnRoutes } from './orders/returns';
import { promotionRoutes } from './promotions';
import { purchasingRoutes } from './purchases';
import { reportRoutes } from './reports/reports';
import { browserDefences, docsSecurity } from './security';
import { stockPushRoutes } from './stock-push';
import { storeRoutes } from './stores';
import { teamRoutes } from './team';
import { accountRoutes } from './team/account';
import { transferRoutes } from './transfers';
import { storableValidatorCompiler } from './validation';
import { webConsole } from './web';
import { webhookRoutes } from './webhooks';
import type { WorkflowDeps } from './workflows';

export { ErrorAnswer } from './answers';

/**
 * The HTTP API: one Fastify instance, zod schemas on every route (validation, typing and the OpenAPI document at
 * /docs), the session check every route declares, one error handler that turns any failure into the `{ code, msg }`
 * answer of the spec, one plugin per resource, and the built console on the same port.
 */

export interface AppDeps extends HealthDeps {
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  auth: Omit<AuthDeps, 'db' | 'signInLimits' | 'mailer' | 'publicUrl'> & { signInLimits?: SignInLimits };
  /** Which proxies' X-Forwarded-For names the client (Fastify's `trustProxy`; config TRUST_PROXY); absent, none. */
  trustProxy?: TrustProxy;
  mailer: Mailer;
  hub: Pick<LiveHub, 'subscribe'>;
  /** Where the console is reached, for links in mail (`http://localhost:3000`). */
  publicUrl: string;
  /** The built console (web/dist); absent in API-only tests. */
  webDir?: string;
  /** On-hand stock of a master code in a warehouse, from the stock projection; absent, every figure is 0. */
  stockOf?: StockOf;
  /** The whole event store: command routes append through it. */
  store: EventStore;
  /** The Temporal client the routes start, signal and update workflows with, and the task queue of the workers. */
  workflows: WorkflowDeps;
  /** The auto batch count trigger of this process (it follows the board's counts); absent, the routes make one. */
  autoBatchTrigger?: AutoBatchCountTrigger;
  /** Live websocket timings (tests shorten them). */
  live?: Pick<LiveDeps, 'tokenRecheckMs' | 'heartbeatMs'>;
  /** How long a client may take to send a request; absent, the defaults of infra/config. */
  timeouts?: HttpTimeouts;
  /** Requests per integrator app on the event feed; absent, api/feed/rate-limit.ts's default. */
  feedRateLimit?: RateLimit;
  /** Where webhook endpoints may point (config WEBHOOK_LOOPBACK); absent, nowhere on this machine. */
  webhookTargets?: TargetPolicy;
  /** Signs the auditor's CSV files (config AUDIT_SIGNING_KEY); absent, derived from the client secret. */
  auditSigningKey?: Buffer;
}

export type KedaiApp = ReturnType<typeof buildApp>;

export function buildApp(deps: AppDeps) {
  const timeouts = deps.timeouts ?? defaultTimeouts;
  const app = Fastify({
    logger: { level: deps.logLevel },
    trustProxy: fastifyTrust(deps.trustProxy ?? false),
    // A client that never finishes its headers or body loses its socket (408) instead of holding it.
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node looks for overdue requests this often (30 s by default, which would stretch a short timeout).
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs / 2),
    },
    // A URL the router cannot take (a malformed or over-long path parameter) answers in the spec's shape too.
    // No request hook runs for it, so it sets nosniff itself (api/security.ts sets it on every other answer).
    frameworkErrors: (error, request, reply) =>
      (reply as unknown as FastifyReply)
        .code(error.statusCode ?? 400)
        .header('x-content-type-options', 'nosniff')
        .send({
          code: error.statusCode ?? 400,
          msg: translate(languageOf(request.headers.language), 'common.bad_url'),
        } satisfies ErrorAnswer),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(storableValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ code: 404, msg: translate(request.language, 'common.not_found') } satisfies ErrorAnswer),
  );
  // OAuth clients may post the token request as a form.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.register(browserDefences);
  // Before the session check: its request hook marks upgrade requests, so a refused upgrade (401) closes its socket.
  app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024, handleProtocols: liveProtocol } });
  // First, so its route hook marks public routes before the OpenAPI document collects them.
  app.register(sessionPlugin, { db: deps.db });
  app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Kedai API', description: 'The Kedai back-office API', version: deps.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Named zod schemas (a recursive category tree) become components the document's $refs resolve to.
    transformObject: jsonSchemaTransformObject,
  });
  app.register(fastifySwaggerUi, { routePrefix: '/docs', ...docsSecurity });

  app.register(healthRoutes, deps);
  const signInLimits = deps.auth.signInLimits ?? defaultSignInLimits;
  app.register(authRoutes, {
    db: deps.db,
    ...deps.auth,
    signInLimits,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
  });
  app.register(infoRoutes, { db: deps.db });
  app.register(registrationRoutes, { db: deps.db, mailer: deps.mailer, publicUrl: deps.publicUrl });
  app.register(recoveryRoutes, { db: deps.db, mailer: deps.mailer, publicUrl: deps.publicUrl, signInLimits });
  app.register(teamRoutes, { db: deps.db });
  app.register(accountRoutes, { db: deps.db });
  app.register(lookupRoutes);
  app.register(announcementRoutes, { db: deps.db });
  app.register(adminReportRoutes, { db: deps.db });
  app.register(categoryRoutes, { db: deps.db });
  // The stock a master code holds in a warehouse, from the stock read model (tests may stand in their own figure).
  const stockOf: StockOf =
    deps.stockOf ??
    (async (tenantId, masterCodeId, warehouseId) =>
      (await stockLevel(deps.db, tenantId, masterCodeId, warehouseId))?.onHand ?? 0);
  app.register(inventoryRoutes, {
    db: deps.db,
    store: deps.store,
    stockOf,
    initialStock: initialStockReceiver(deps.db, deps.store),
  });
  app.register(stockRoutes, { db: deps.db, store: deps.store });
  app.register(barcodeRoutes, { db: deps.db, store: deps.store });
  app.register(transferRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(goodsIssueRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(purchasingRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(promotionRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(storeRoutes, { db: deps.db, workflows: deps.workflows, publicUrl: deps.publicUrl });
  app.register(stockPushRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(webhookRoutes, {
    db: deps.db,
    store: deps.store,
    workflows: deps.workflows,
    targets: deps.webhookTargets ?? { allowLoopback: false },
  });
  app.register(orderRoutes, { db: deps.db, store: deps.store });
  app.register(channelRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(batchRoutes, {
    db: deps.db,
    store: deps.store,
    workflows: deps.workflows,
    ...(deps.autoBatchTrigger ? { trigger: deps.autoBatchTrigger } : {}),
  });
  app.register(printingRoutes, { db: deps.db, store: deps.store });
  app.register(returnRoutes, { db: deps.db, store: deps.store });
  app.register(dashboardRoutes, { db: deps.db });
  app.register(manifestRoutes, { db: deps.db, store: deps.store });
  app.register(listingRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(listingUploadRoutes, { db: deps.db, store: deps.store, workflows: deps.workflows });
  app.register(reportRoutes, { db: deps.db });
  app.register(auditRoutes, {
    db: deps.db,
    store: deps.store,
    signingKey: serverAuditKey(deps.auditSigningKey, deps.auth.clientSecret),
  });
  app.register(liveRoutes, { db: deps.db, hub: deps.hub, ...deps.live });
  app.register(appRoutes, { db: deps.db });
  app.register(feedRoutes, { db: deps.db, ...(deps.feedRateLimit ? { rateLimit: deps.feedRateLimit } : {}) });
  if (deps.webDir) app.register(webConsole, { dir: deps.webDir });
  return app;
}

/** Fastify's types lack the hop count its proxy-addr takes; a count n trusts the n nearest hops, as proxy-addr does. */
function fastifyTrust(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * The first issue whose message names a validation rule (api/contracts/rules.ts) decides the answer's code and
 * message; every issue is listed. A rule's message gets its parameters from the failing check (its limit) and from
 * the rule (a field name).
 */
function validationAnswer(
  error: FastifyError & { validation: { instancePath: string; message?: string; params?: unknown }[] },
  request: FastifyRequest,
) {
  const where = error.validationContext ?? 'request';
  let code = 400;
  let msg: string | undefined;
  const errors = error.validation.map((issue) => {
    const found = ruleOf(issue.message);
    const message = found
      ? translate(request.language, found.key, { ...found.params, ...issueParams(issue.params) })
      : issue.message && hasMessage(issue.message)
        ? translate(request.language, issue.message)
        : (issue.message ?? 'is invalid');
    if (found && msg === undefined) {
      code = found.code;
      msg = message;
    }
    return { path: `${where}${issue.instancePath === '/' ? '' : issue.instancePath}`, message };
  });
  return {
    code,
    msg: msg ?? translate(request.language, 'common.invalid_input', { where }),
    errors,
  } satisfies ErrorAnswer;
}

/** What a zod issue tells a message: a size check's limit, a custom check's own parameters. */
function issueParams(params: unknown): MessageParams {
  const issue = (params ?? {}) as { maximum?: unknown; minimum?: unknown; params?: unknown };
  const named: MessageParams = {};
  if (typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint')
    named.max = Number(issue.maximum);
  if (typeof issue.minimum === 'number' || typeof issue.minimum === 'bigint')
    named.min = Number(issue.minimum);
  if (issue.params && typeof issue.params === 'object')
    for (const [name, value] of Object.entries(issue.params))
      if (typeof value === 'string' || typeof value === 'number') named[name] = value;
  return named;
}

/**
 * The one place a failure becomes an answer. Zod validation → 400 with the catalogue's code where the schema names
 * a rule; a refusal (a DomainError: the domain's, a command's or the API's own) → the status, code and translated
 * message its error table gives it, with every field's refusal in `errors` when it names several; another 4xx →
 * that status; anything else → a 500 that tells the caller nothing
 * internal. `/oauth/token` answers in OAuth's own shape.
 */
function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const oauth = request.url.startsWith('/oauth/');
  if (hasZodFastifySchemaValidationErrors(error)) {
    const answer = validationAnswer(error, request);
    if (oauth)
      return reply
        .code(400)
        .send({ error: 'invalid_request', error_description: answer.errors[0]?.message ?? answer.msg });
    return reply.code(400).send(answer);
  }
  const refused = refusalOf(error);
  if (refused) {
    const { status, code, msg } = refusalAnswer(refused, request.language);
    if (oauth) return reply.code(status).send({ error: 'invalid_request', error_description: msg });
    const errors = refusalErrors(refused, request.language);
    return reply.code(status).send({ code, msg, ...(errors ? { errors } : {}) } satisfies ErrorAnswer);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const msg = status === 413 ? translate(request.language, 'common.too_large') : error.message;
    if (oauth) return reply.code(status).send({ error: 'invalid_request', error_description: msg });
    return reply.code(status).send({ code: status, msg } satisfies ErrorAnswer);
  }
  // A 5xx is a bug: the log gets the details, the caller nothing it could learn the internals from.
  request.log.error({ err: error }, 'request failed');
  return reply
    .code(500)
    .send({ code: 500, msg: translate(request.language, 'common.internal_error') } satisfies ErrorAnswer);
}
