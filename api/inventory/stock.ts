/**
 * The stock API: the seller's stock operations and reports (issue 4; spec §3 "Stock movement and adjustment",
 * "Master code" stock figures, §5 uploads). Stock is event-sourced (domain/inventory/stock.ts, one stream per master
 * code per warehouse); these routes run its commands and read its projections (projections/stock.ts).
 *
 * Every answer is `{ code: 0, msg, data }`; a refusal is an HTTP 4xx with `{ code, msg, errors? }`. An unknown
 * master code, warehouse or upload and another tenant's all answer the same 404. Codes (stock-common.ts StockCode):
 * 450 quantity invalid, 451 negative stock refused (409), 452 mode invalid, 453 idempotency key reused (409), 454
 * idempotency key invalid, 455 upload has bad rows, 456 upload file unusable, 457 not a CSV/XLSX body (415), 458
 * export too large, 459 time invalid, 475 a combo has no stock of its own (409), 498 hold kind or action invalid,
 * 449 other domain refusals (409: release more than reserved or held, stop more than in process, cancel more
 * incoming than expected; 400: same warehouse).
 *
 * The stock figures (spec §3 "Master code" → "Stock figures"; domain/inventory/stock.ts): on_hand, reserved,
 * in_process (orders being picked and packed), on_hold (set aside by the seller), pos_on_hold (parked Smart POS
 * sales), supplier_on_hold (set aside for a supplier), incoming (expected from a supplier or in transit: not part of
 * on hand), and available — "available online", what the channels may sell: on_hand − reserved − in_process −
 * on_hold − pos_on_hold − supplier_on_hold. Every answer below that states a stock states all eight ("Figures").
 *
 * ---- single movements (permission inventory-stock-adjustment) ----
 * All three take an idempotency key: header `Idempotency-Key` or body `idempotency_key` (1–100 printable ASCII; both
 * given, they must agree). The same key again moves nothing and answers the first answer again, with the response
 * header `Idempotent-Replayed: true`; the same key for a different movement → 409 (453). Without a key each call
 * moves stock. Inactive master codes may be received, adjusted and held (stock is still counted after an item stops
 * selling); combos are refused (409, 475). Master code first, then warehouse, are checked: unknown → 404.
 *
 * POST /api/inventory/stock/receive
 *   body { master_code_id, warehouse_id (a warehouse or a branch), quantity: 1..1e9,
 *          reason?: string ≤ 500, reference?: string ≤ 100 (recorded as source {type:'reference', id}),
 *          idempotency_key? }
 *   → data StockMovement (below), msg "Stock received"
 * POST /api/inventory/stock/adjust
 *   body { master_code_id, warehouse_id, mode: 'add'|'deduct'|'set', quantity (add/deduct 1..1e9; set 0..1e9:
 *          the counted quantity), reason?, idempotency_key? }
 *   → data StockMovement, msg "Stock adjusted"; 409 (451) when the tenant refuses negative manual stock and the
 *     change would take on hand below 0 (the message states on hand, change and the result)
 * POST /api/inventory/stock/hold
 *   body { master_code_id, warehouse_id, hold: 'online'|'pos'|'supplier' (on_hold, pos_on_hold or
 *          supplier_on_hold), action: 'hold'|'release', quantity 1..1e9, reason?, idempotency_key? }
 *   → data StockMovement (action StockHeld or StockHoldReleased, mode the hold kind), msg "Stock put on hold" /
 *     "Stock released from hold". Holding more than is available is allowed (available goes negative, flagged);
 *     releasing more than that hold holds → 409 (449), the message stating held and asked quantities. A bad hold or
 *     action → 400 (498). The same key for another hold kind or the other action → 409 (453).
 *   StockMovement = { master_code {id, code, name}, warehouse {id, code, name}, action ('StockReceived' |
 *     'StockAdjusted' | 'StockHeld' | …), mode ('add'|'deduct'|'set' for an adjustment, 'online'|'pos'|'supplier'
 *     for a hold, 'reserved'|'inProcess'|'free' for a shipment, else null), quantity, previous_stock, change,
 *     Figures (after the movement), reason (string|null), revision (the movement's place in its stock's stream,
 *     from 0) }
 *   Figures = on_hand, reserved, in_process, on_hold, pos_on_hold, supplier_on_hold, incoming, available
 *
 * ---- settings ----
 * GET /api/inventory/settings  (inventory-stock-adjustment)
 * PUT /api/inventory/settings  (the owner) body { refuse_negative_manual: boolean }
 *   → data { refuse_negative_manual (default true), updated_at: ISO|null (null: never saved) }
 *
 * ---- bulk upload (inventory-stock-adjustment; stock-upload.ts) ----
 * POST /api/inventory/stock/upload?filename=<name.csv|name.xlsx>
 *   body: the file itself (not multipart), Content-Type text/csv, application/vnd.openxmlformats-officedocument.
 *   spreadsheetml.sheet, application/vnd.ms-excel (what Windows browsers call a CSV) or application/octet-stream;
 *   the filename's extension decides how it is read (default upload.csv / upload.xlsx from the type). ≤ 5 MB,
 *   ≤ 10,000 rows, first row a header (ignored), columns master_code, warehouse_code, mode (add|deduct|set),
 *   quantity, reason. CSV in UTF-8 without a BOM.
 *   → 400 (455) when any row is bad, nothing applied: { code, msg, errors: [{ path: 'row 7 quantity', message }],
 *     rows: [{ row: 7, column: 'quantity'|null, message }] }. Bad rows: format, unknown master code ("Master code
 *     [X] not found") or warehouse code ("Warehouse [X] not found") of the tenant, a combo, and — while negative
 *     manual stock is refused — a deduction that would take on hand below 0 (from the current stock, rows in order).
 *   → 400 (456) for an unusable file (type, BOM, encoding, empty, more than 10,000 rows, over 5 MB, unreadable),
 *     413 past the body limit (5 MB + 64 KB), 415 (457) for a body that is not a file.
 *   → 202 data { upload_id, status: 'running', total } — the rows are applied in the background; the same file
 *     (by SHA-256) uploaded while it is still running answers that upload's id. Each row's command id is
 *     `upload:<tenant>:<file hash>:<row>`, so the same file uploaded again moves stock once (its rows replay).
 * GET /api/inventory/stock/upload/:id
 *   → data { id, filename, status: 'running'|'done'|'failed', total, applied (moved stock now), replayed (already
 *     applied by an earlier upload of the same file), failed, processed (applied+replayed+failed), errors: [{ row,
 *     column|null, message }], message: string|null (why it failed as a whole: interrupted), created_at,
 *     finished_at|null }. The console polls it (e.g. every 500 ms) until status is not 'running'.
 *
 * ---- reports (stock-reports.ts) ----
 * GET /api/inventory/stock  (inventory-master-code) — the stock list, ag-grid Infinite Row Model
 *   query: startRow, endRow (≤ 500 rows a page), sortModel JSON [{colId, sort}] with colId in code, name,
 *   seller_sku, warehouse, type, status, on_hand, reserved, in_process, on_hold, pos_on_hold, supplier_on_hold,
 *   incoming, available, available_percent, last_movement_at (default code asc; combos' null figures sort last);
 *   filterModel JSON { code?, name?, seller_sku?, warehouse? (text filters), type?, status? (set filters) };
 *   search (code, name, seller SKU); warehouse_id (one warehouse or branch; unknown → 404); negative_only=true
 *   → data { rows: StockRow[], lastRow } — lastRow exact while at most 10,000 rows match (or once a page comes back
 *     short), else -1: ag-grid then grows the grid as the seller scrolls
 *   StockRow = { key: '<masterCodeId>@<warehouseId>' (the live view 'stock' names rows so), master_code_id, code,
 *     name, seller_sku, type, status, soft_threshold, warehouse_id, warehouse_code, warehouse_name, warehouse_kind,
 *     Figures (each null for a combo, except available), available_percent (available as a percent of on hand,
 *     one decimal: the spec's "percent of stock on hand to available"; null when on hand ≤ 0 and for a combo),
 *     negative (available < 0: oversold), low (available ≤ soft threshold > 0), last_movement_at (ISO|null) }.
 *   A standard master code appears in a warehouse once its stock there has moved. A combo appears in each
 *   warehouse where any of its components has stock, with available = min over components of
 *   floor(component available ÷ quantity) (a missing component counts 0). A change to a component's stock is
 *   pushed live under the component's key: the console refreshes the visible page on any 'stock' change.
 * GET /api/inventory/stock/movements  (inventory-stock-movement) — the movement report, newest first
 *   query: startRow, endRow, sortModel [{colId:'occurred_at', sort}], search (description), master_code_id?,
 *   warehouse_id?, from? / to? (ISO instants, inclusive), action? (comma list of StockReceived, StockAdjusted, …)
 *   → data { rows: MovementRow[], lastRow } (lastRow -1 while more than 10,000 match and the page is full)
 *   MovementRow = { id: '<mc>@<wh>#<revision>', master_code {id, code|null, name|null}, warehouse {id, code|null,
 *     name|null}, revision, occurred_at, action, mode (as in StockMovement), quantity, previous_stock, change,
 *     stock_in, stock_out, new_stock (= on hand after), reserved, in_process, on_hold, pos_on_hold, supplier_on_hold,
 *     incoming, available (the figures after the movement), description (the reason; string|null), source {type, id}|null,
 *     counterpart_warehouse {id, code|null, name|null}|null, created_by {id, name}|null }
 * GET /api/inventory/stock/movements/export?format=csv|xlsx&<the same filters>  (inventory-list-export)
 *   → a file download (CSV UTF-8 with BOM, or XLSX), at most 100,000 rows: more → 400 (458) asking to narrow the
 *   filters. Headers, actions and modes in the caller's language; the figures after each movement
 *   (reserved, in process, the three holds, incoming, available online) follow new stock.
 * GET /api/inventory/stock/at?master_code_id&warehouse_id&at=<ISO>  (inventory-stock-movement)
 *   → data { Figures, as_of_movement: MovementRow|null } (null: no movement yet, all 0)
 * GET /api/inventory/stock/history?master_code_id&warehouse_id&until=<ISO, default now>&limit=<1..1000, 100>
 *     &before_revision=<n>  (inventory-stock-movement) — the auditor's replay
 *   → data { Figures, as_of_movement, movements: MovementRow[] (oldest first, ending with
 *     as_of_movement: the last `limit`), total (movements up to it); for the page before, pass the first
 *     movement's revision as before_revision }
 * GET /api/inventory/stock/series?master_code_id&warehouse_id&from&to&points=<2..1000, 200>
 *     (inventory-stock-movement) — for a chart
 *   → data { from, to, kind: 'movements'|'sampled', points: [{ at, Figures }] } — every
 *     movement in [from, to] (plus the stock at from and at to) when they are at most `points`, else the stock at
 *     `points` evenly spaced instants. from defaults to the first movement, to to now.
 * Combos are refused by at/history/series (409, 475): their stock is their components'.
 */
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AdjustBody,
  HoldBody,
  ReceiveBody,
  StockMovementAnswer,
  StockSettings,
  StockSettingsBody,
} from '@api/contracts/inventory-stock';
import { requestStockMovement } from '@commands/inventory/stock-request';
import { changeStockSettings } from '@commands/inventory/stock-settings';
import { stockSettings } from '@projections/inventory/stock-settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandIdOf, commandStore, movementAnswer, type StockDeps, tags } from './stock-common';
import { stockReportRoutes } from './stock-reports';
import { stockUploadRoutes } from './stock-upload';

const adjusting = { access: { permission: 'inventory-stock-adjustment' } } as const;
const conflicts = { 409: ErrorAnswer };
const replayedHeader = 'idempotent-replayed';

export const stockRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, deps) => {
  const { db, store } = deps;
  const commandDeps = { db, store: commandStore(store) };

  app.post(
    '/api/inventory/stock/receive',
    {
      config: adjusting,
      schema: {
        tags,
        summary:
          'Receive stock of a master code into a warehouse or branch (Idempotency-Key header: a retry moves nothing)',
        body: ReceiveBody,
        response: { 200: Ok(StockMovementAnswer), ...refusals, ...conflicts },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      const commandId = commandIdOf(request, session.tenantId, body.idempotency_key);
      const { target, result } = await requestStockMovement(commandDeps, session, {
        kind: 'receive',
        masterCodeId: body.master_code_id,
        warehouseId: body.warehouse_id,
        quantity: body.quantity,
        reason: body.reason,
        reference: body.reference,
        commandId,
      });
      if (result.replayed) reply.header(replayedHeader, 'true');
      return ok(request, movementAnswer(target, result), 'stock.received');
    },
  );

  app.post(
    '/api/inventory/stock/adjust',
    {
      config: adjusting,
      schema: {
        tags,
        summary:
          'Adjust stock: add, deduct, or set to the counted quantity (409, code 451, when it would go below 0 and the account refuses that)',
        body: AdjustBody,
        response: { 200: Ok(StockMovementAnswer), ...refusals, ...conflicts },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      const commandId = commandIdOf(request, session.tenantId, body.idempotency_key);
      const { target, result } = await requestStockMovement(commandDeps, session, {
        kind: 'adjust',
        masterCodeId: body.master_code_id,
        warehouseId: body.warehouse_id,
        mode: body.mode,
        quantity: body.quantity,
        reason: body.reason,
        commandId,
      });
      if (result.replayed) reply.header(replayedHeader, 'true');
      return ok(request, movementAnswer(target, result), 'stock.adjusted');
    },
  );

  app.post(
    '/api/inventory/stock/hold',
    {
      config: adjusting,
      schema: {
        tags,
        summary:
          'Put stock on hold or release it: the online hold, Smart POS hold or supplier hold (409, code 449, to release more than held)',
        body: HoldBody,
        response: { 200: Ok(StockMovementAnswer), ...refusals, ...conflicts },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      const commandId = commandIdOf(request, session.tenantId, body.idempotency_key);
      const { target, result } = await requestStockMovement(commandDeps, session, {
        kind: 'hold',
        masterCodeId: body.master_code_id,
        warehouseId: body.warehouse_id,
        action: body.action,
        hold: body.hold,
        quantity: body.quantity,
        reason: body.reason,
        commandId,
      });
      if (result.replayed) reply.header(replayedHeader, 'true');
      return ok(
        request,
        movementAnswer(target, result),
        body.action === 'hold' ? 'stock.held' : 'stock.hold_released',
      );
    },
  );

  app.get(
    '/api/inventory/settings',
    {
      config: adjusting,
      schema: {
        tags,
        summary: "The account's stock settings (refuse negative stock for manual deductions)",
        response: { 200: Ok(StockSettings), ...refusals },
      },
    },
    async (request) => ok(request, await stockSettings(db, seller(request).tenantId)),
  );

  app.put(
    '/api/inventory/settings',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: "Change the account's stock settings (the owner only)",
        body: StockSettingsBody,
        response: { 200: Ok(StockSettings), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      await changeStockSettings({ db }, session, request.body);
      return ok(request, await stockSettings(db, session.tenantId), 'stock.settings.saved');
    },
  );

  await app.register(stockUploadRoutes, deps);
  await app.register(stockReportRoutes, deps);
};
