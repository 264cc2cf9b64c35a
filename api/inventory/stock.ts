/**
 * The stock API (issue 4; spec §3 "Stock movement and adjustment", "Master code" stock figures, §5 uploads): single
 * movements with an idempotency key (`Idempotency-Key` header or body `idempotency_key`; a replay answers the first
 * answer with `Idempotent-Replayed: true`), the stock settings, bulk uploads (stock-upload.ts) and the reports
 * (stock-reports.ts). Shapes: api/contracts/inventory-stock.ts; result codes: domain/inventory/codes.ts.
 *
 * Who: movements, uploads and reading the settings need inventory-stock-adjustment; changing the settings, the
 * owner; the stock list inventory-master-code; the movement report, at, history and series inventory-stock-movement;
 * the export inventory-list-export.
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AdjustBody,
  HoldBody,
  ReceiveBody,
  StockMovementAnswer,
  StockSettings,
  StockSettingsBody,
} from '@api/contracts/inventory-stock';
import { router } from '@api/route';
import { requestStockMovement } from '@commands/inventory/stock-request';
import { changeStockSettings } from '@commands/inventory/stock-settings';
import { stockSettings } from '@projections/inventory/stock-settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandIdOf, commandStore, type StockDeps, tags } from './stock-common';
import { stockReportRoutes } from './stock-reports';
import { stockUploadRoutes } from './stock-upload';

const movements = [
  {
    kind: 'receive',
    body: ReceiveBody,
    summary: 'Receive stock of a master code into a warehouse or branch',
  },
  {
    kind: 'adjust',
    body: AdjustBody,
    summary: 'Adjust stock: add, deduct, or set to the counted quantity',
  },
  {
    kind: 'hold',
    body: HoldBody,
    summary: 'Put stock on an online, Smart POS or supplier hold, or release it',
  },
] as const;

export const stockRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, deps) => {
  const { db } = deps;
  const commandDeps = { db, store: commandStore(deps.store) };
  const route = router(app, { tags, access: { permission: 'inventory-stock-adjustment' } });

  for (const { kind, body, summary } of movements) {
    const spec = {
      summary,
      body: body as typeof ReceiveBody,
      answer: StockMovementAnswer,
      errors: { 409: ErrorAnswer },
    };
    route.post(`/api/inventory/stock/${kind}`, spec, async (request, reply) => {
      const session = seller(request);
      const commandId = commandIdOf(request, session.tenantId, request.body.idempotency_key);
      const input = { ...request.body, kind, commandId } as Parameters<typeof requestStockMovement>[2];
      const { answer, replayed, message } = await requestStockMovement(commandDeps, session, input);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return ok(request, answer, message);
    });
  }

  route.get(
    '/api/inventory/settings',
    {
      summary: "The account's stock settings (refuse negative stock for manual deductions)",
      answer: StockSettings,
    },
    async (request) => ok(request, await stockSettings(db, seller(request).tenantId)),
  );

  route.put(
    '/api/inventory/settings',
    {
      summary: "Change the account's stock settings (the owner only)",
      access: 'owner',
      body: StockSettingsBody,
      answer: StockSettings,
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
