import type {
  DocumentReplay,
  DocumentStep,
  StockReplay,
  StockReplayExportQuery,
  StockReplayQuery,
  StockStep,
} from '@api/contracts/audit';
import { STOCK_FIGURES } from '@api/contracts/audit';
import { auditErrors } from '@domain/audit/codes';
import { type DocumentKind, documentStreamId, reasonOf, replayDocument } from '@domain/audit/documents';
import { figuresOf, initialState, type StockEvent, stockStreamId } from '@domain/inventory/stock';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore, RecordedEvent } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import type { Cell } from '@infra/sheets/write';
import type { Kysely } from 'kysely';
import { userNames } from './documents.queries';
import { stockTarget } from './inventory/reference';
import { movementRow, type StockMovementRow, toMovement } from './stock';
import { figureAnswer, named } from './stock.queries';

/**
 * The auditor's replay, read from the log: a stock's events (every figure after each is in the event, so the figures
 * before it are the previous event's) named through the read models (who, the reason in words, the source document's
 * number), and a document's events folded with its aggregate's own `evolve` (domain/audit/documents.ts). Both as
 * pages for the console and as rows for the signed CSV (projections/audit-signed-csv.ts).
 */

const refuse = refuser(auditErrors);

export interface ReplayDeps {
  db: Kysely<Database>;
  store: EventStore;
}

/** The events of a stream from `from`, at most `limit` (and whether more follow). */
async function readPage(store: EventStore, stream: string, from: number, limit: number) {
  const events: RecordedEvent[] = [];
  let hasMore = false;
  for await (const event of store.readStream(stream, { fromRevision: BigInt(from) })) {
    if (events.length === limit) {
      hasMore = true;
      break;
    }
    events.push(event);
  }
  return { events, hasMore };
}

// ---- a stock ----

/** The steps of these events of one stock; `previous` is the event before the first (undefined: none). */
async function stockSteps(
  deps: ReplayDeps,
  tenantId: string,
  target: Awaited<ReturnType<typeof stockTarget>>,
  previous: RecordedEvent | undefined,
  events: readonly RecordedEvent[],
  language: Language,
): Promise<StockStep[]> {
  const movements = await named(
    deps.db,
    tenantId,
    language,
    { masterCode: target.masterCode, warehouse: target.warehouse },
    events.map((event) => toMovement(recordedRow(event))),
  );
  let before = previous ? figuresOf((previous as unknown as StockEvent).data) : initialState;
  return events.map((event, index) => {
    const step: StockStep = {
      movement: movements[index]!,
      before: figureAnswer(before),
      event_id: event.id,
      command_id: event.metadata.commandId ?? null,
      position: event.position.prepare.toString(),
    };
    before = figuresOf((event as unknown as StockEvent).data);
    return step;
  });
}

/**
 * An event as the ledger row its projection writes, read back as the ledger's queries read it: the figures are
 * numbers rather than pg's strings (toMovement takes either through Number), the time a Date.
 */
const recordedRow = (event: RecordedEvent) =>
  ({
    ...movementRow(event),
    occurred_at: new Date(event.metadata.occurredAt),
  }) as unknown as StockMovementRow;

/** A page of a stock's history, oldest first: master code and warehouse of another tenant are missing (404). */
export async function stockReplay(
  deps: ReplayDeps,
  tenantId: string,
  query: StockReplayQuery,
  language: Language,
): Promise<StockReplay> {
  const target = await withTenant(deps.db, tenantId, (trx) =>
    stockTarget(trx, tenantId, query.master_code_id, query.warehouse_id),
  );
  const stream = stockStreamId(tenantId, target.masterCode.id, target.warehouse.id);
  // One event before the page: its figures are the first step's "before".
  const start = Math.max(0, query.from - 1);
  const page = await readPage(deps.store, stream, start, query.limit + (query.from > 0 ? 1 : 0));
  const previous = query.from > 0 ? page.events.shift() : undefined;
  return {
    master_code: { id: target.masterCode.id, code: target.masterCode.code, name: target.masterCode.name },
    warehouse: { id: target.warehouse.id, code: target.warehouse.code, name: target.warehouse.name },
    from: query.from,
    steps: await stockSteps(deps, tenantId, target, previous, page.events, language),
    has_more: page.hasMore,
  };
}

const FIGURES = STOCK_FIGURES;

export const STOCK_REPLAY_COLUMNS = [
  'revision',
  'occurred_at',
  'user',
  'action',
  'quantity',
  'change',
  'reason',
  'source',
  ...FIGURES.flatMap((figure) => [`${figure}_before`, `${figure}_after`]),
  'command_id',
  'event_id',
  'position',
] as const;

const EXPORT_CHUNK = 1000;

/** A stock's whole history as signed-file rows, read a chunk at a time. */
export async function stockReplayRows(
  deps: ReplayDeps,
  tenantId: string,
  query: StockReplayExportQuery,
  language: Language,
) {
  const first = await stockReplay(deps, tenantId, { ...query, from: 0, limit: EXPORT_CHUNK }, language);
  async function* rows(): AsyncGenerator<Cell[]> {
    let page = first;
    for (;;) {
      for (const step of page.steps) {
        const m = step.movement;
        yield [
          m.revision,
          m.occurred_at,
          m.created_by?.name ?? '',
          translate(language, `stock.action.${m.action}`),
          m.quantity,
          m.change,
          m.description ?? '',
          m.source ? `${m.source.type}:${m.source.id}` : '',
          ...FIGURES.flatMap((figure) => [
            step.before[figure],
            figure === 'on_hand' ? m.new_stock : m[figure],
          ]),
          step.command_id ?? '',
          step.event_id,
          step.position,
        ];
      }
      if (!page.has_more) return;
      page = await stockReplay(
        deps,
        tenantId,
        { ...query, from: page.from + page.steps.length, limit: EXPORT_CHUNK },
        language,
      );
    }
  }
  return { target: first, rows: rows() };
}

// ---- a document ----

/** A document's whole history, folded with its aggregate's `evolve`; another tenant's or none is missing (404). */
export async function documentReplay(
  deps: ReplayDeps,
  tenantId: string,
  kind: DocumentKind,
  id: string,
): Promise<DocumentReplay> {
  const events: RecordedEvent[] = [];
  for await (const event of deps.store.readStream(documentStreamId(kind, tenantId, id))) events.push(event);
  if (events.length === 0) throw refuse('DOCUMENT_NOT_FOUND');
  const names = await withTenant(deps.db, tenantId, (trx) =>
    userNames(
      trx,
      tenantId,
      events.map((event) => event.metadata.userId ?? null),
    ),
  );
  const folded = replayDocument(kind, events);
  const steps: DocumentStep[] = events.map((event, index) => {
    const userId = event.metadata.userId ?? null;
    return {
      revision: Number(event.revision),
      event_id: event.id,
      type: event.type,
      occurred_at: event.metadata.occurredAt,
      user: userId ? { id: userId, name: names.get(userId) ?? userId } : null,
      command_id: event.metadata.commandId ?? null,
      reason: reasonOf(event.data),
      position: event.position.prepare.toString(),
      ...folded[index]!,
    };
  });
  return { kind, id, steps };
}

export const DOCUMENT_REPLAY_COLUMNS = [
  'revision',
  'occurred_at',
  'user',
  'event',
  'reason',
  'changes',
  'state_after',
  'command_id',
  'event_id',
  'position',
] as const;

const shown = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A document's history as signed-file rows: each change as `field: before → after`, and the state after it. */
export function documentReplayRows(replay: DocumentReplay): Cell[][] {
  return replay.steps.map((step) => [
    step.revision,
    step.occurred_at,
    step.user?.name ?? '',
    step.type,
    step.reason ?? '',
    step.changed
      .map((field) => `${field}: ${shown(step.before?.[field])} → ${shown(step.after?.[field])}`)
      .join('; '),
    Object.entries(step.after ?? {})
      .map(([field, value]) => `${field}=${shown(value)}`)
      .join('; '),
    step.command_id ?? '',
    step.event_id,
    step.position,
  ]);
}
