import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { type SellerSession, seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { IDEMPOTENCY_KEY_MAX } from '@api/contracts/purchases';
import { ApiError } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import type { runUpdate, WorkflowDeps } from '@api/workflows';
import { withWorkflow, workflowHandlers } from '@commands/purchases/processes';
import type { ApprovingActor as Actor } from '@commands/support/actor';
import { wholeStore } from '@commands/support/document';
import { eventIdFor } from '@commands/support/ids';
import { PurchaseCode } from '@domain/purchases/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { MessageParams } from '@infra/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * What the purchasing routes share (api/purchases/index.ts lists them): who acts, the idempotency key, and how the
 * purchasing workflows are reached — their refusals answer from the domain's error tables (domain/purchases/).
 */

export interface PurchaseDeps {
  db: Db;
  /** The app's event store (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

export const tags = ['purchases'];
export const viewing = { access: { permission: 'purchases-index' } } as const;
export const managing = { access: { permission: 'purchases-manage' } } as const;

/** The store as a command handler needs it. */
export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'purchase');

export const actorOf = (session: SellerSession): Actor => ({
  tenantId: session.tenantId,
  userId: session.userId,
  owner: session.kind === 'owner',
});

/** The person as a workflow's update takes them. */
export const workflowActor = (session: SellerSession) => ({
  userId: session.userId,
  owner: session.kind === 'owner',
});

/** Whether the caller may change purchasing documents: without it, a detail offers no action. */
export const mayManage = (session: SellerSession) => session.permissions.has('purchases-manage');

/**
 * The id of a document a request creates: derived from the `Idempotency-Key` header (or the body's
 * `idempotency_key`) and the tenant, so a retried request names the same document and creates nothing twice; a fresh
 * id without a key.
 */
export function documentIdOf(
  request: FastifyRequest,
  tenantId: string,
  kind: string,
  bodyKey: string | undefined,
): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, PurchaseCode.keyInvalid, 'purchases.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
  });
  return key === undefined ? randomUUID() : eventIdFor(`${kind}:${tenantId}:${key}`);
}

export const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };

type App = Parameters<FastifyPluginAsyncZod<PurchaseDeps>>[0];
type Handlers = Parameters<typeof runUpdate>[4];

/** A document an action names, as the action route needs it. */
export interface ActionTarget<Detail> {
  workflowId: string;
  /** Its master codes by id, for refusal messages. */
  codes: ReadonlyMap<string, { code: string }>;
  /** Starts its workflow again while it is open (null once closed). */
  restart: (() => Promise<void>) | null;
  /** The document after the action, and the message saying what was done. */
  answer(action: string): Promise<{ detail: Detail; key: string; params: MessageParams }>;
}

/**
 * The action routes of a document, `POST <path>/:id/<action>`: the document is the caller's (404 otherwise), its
 * workflow runs the action or refuses with a 4xx and nothing moves, and the answer is the document after it.
 */
export function actionRoutes<Detail>(
  app: App,
  path: string,
  detail: z.ZodType<Detail>,
  target: (session: SellerSession, id: string) => Promise<ActionTarget<Detail>>,
) {
  // The answer is checked against `detail` when sent; typed here through `target`.
  const answers = { 200: Ok(detail as z.ZodType), ...refusals, ...conflicts };
  return <Body extends z.ZodType>(
    name: string,
    summary: string,
    body: Body,
    run: (
      session: SellerSession,
      workflowId: string,
      body: z.infer<Body>,
      handlers: Handlers,
    ) => Promise<unknown>,
  ) =>
    app.post(
      `${path}/:id/${name}`,
      {
        config: managing,
        schema: {
          tags,
          summary,
          params: IdParams,
          body,
          response: answers,
        },
      },
      async (request) => {
        const session = seller(request);
        const document = await target(session, request.params.id);
        await withWorkflow(
          () =>
            run(
              session,
              document.workflowId,
              request.body as z.infer<Body>,
              workflowHandlers(document.codes),
            ),
          document.restart,
        );
        const { detail: answer, key, params } = await document.answer(name);
        return ok(request, answer, key, params);
      },
    );
}
