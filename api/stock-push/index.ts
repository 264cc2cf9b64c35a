import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  MainStoreLockBody,
  ManualSyncAnswer,
  ManualSyncBody,
  PushLogPage,
  PushLogQuery,
  PushQueueAnswer,
  PushQueueQuery,
  SkuRuleBody,
  SkuRuleKey,
  SkuRuleQuery,
  SkuRuleRow,
  StoreAllocations,
  StoreParams,
  StoreRuleBody,
  StoreWarehousesBody,
  SyncStatusAnswer,
} from '@api/contracts/stock-push';
import { conflicts, router } from '@api/route';
import { type SyncDeps, syncStoreNow } from '@commands/channels/manual-sync';
import {
  deleteSkuRule,
  saveMainStoreLock,
  saveSkuRule,
  saveStoreRule,
  saveStoreWarehouses,
} from '@commands/channels/push-rules';
import { pushQueueOf } from '@commands/channels/push-waiting';
import type { PermissionKey } from '@domain/access/permissions';
import { pushLogPage, skuRulePage, storeAllocations, syncStatus } from '@projections/push-log.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The stock push (issue 15): the push rules of the allocation screens (/inventory/stock-allocation-store and
 * -marketplace), the push log (/logistic/sync-qty-log) and "sync now" (/inventory/manual-sync-status). Every route
 * needs `inventory-manage-sync` (spec §6 "Inventory: manage and sync"); choosing which warehouses feed a store
 * needs `multiple-warehouse-linking` (spec §6) instead.
 */

const tags = ['stock-push'];
const SYNC = 'inventory-manage-sync' satisfies PermissionKey;
const LINKING = 'multiple-warehouse-linking' satisfies PermissionKey;

export const stockPushRoutes: FastifyPluginAsyncZod<SyncDeps> = async (app, deps) => {
  const route = router(app, { tags, access: { permission: SYNC } });

  route.get(
    '/api/inventory/stock-allocation/stores',
    {
      summary: "Every store's push rule, the warehouses that feed it, and the main store lock",
      answer: StoreAllocations,
    },
    async (request) => ok(request, await storeAllocations(deps.db, seller(request).tenantId)),
  );

  route.put(
    '/api/inventory/stock-allocation/stores/:storeId',
    {
      summary:
        "Set a store's push rule (percent of available plus a fixed amount, buffer, minimum, maximum); null: show all",
      params: StoreParams,
      body: StoreRuleBody,
      answer: StoreAllocations,
    },
    async (request) => {
      const input = { storeId: request.params.storeId, rule: request.body.rule };
      return ok(request, await saveStoreRule(deps, seller(request), input), 'push.rule.saved');
    },
  );

  route.put(
    '/api/inventory/stock-allocation/stores/:storeId/warehouses',
    {
      summary:
        "Choose the warehouses whose available stock feeds a store (empty: the store's own, else the default)",
      access: { permission: LINKING },
      params: StoreParams,
      body: StoreWarehousesBody,
      answer: StoreAllocations,
    },
    async (request) => {
      const input = { storeId: request.params.storeId, ...request.body };
      return ok(request, await saveStoreWarehouses(deps, seller(request), input), 'push.warehouses_saved');
    },
  );

  route.put(
    '/api/inventory/stock-allocation/main-store',
    {
      summary: 'Set the main store lock: below the threshold only the main store shows stock',
      body: MainStoreLockBody,
      answer: StoreAllocations,
    },
    async (request) =>
      ok(request, await saveMainStoreLock(deps, seller(request), request.body), 'push.main_store_saved'),
  );

  route.get(
    '/api/inventory/stock-allocation/marketplace',
    {
      summary: 'Master codes with a push rule of their own in a store, for ag-grid',
      query: SkuRuleQuery,
      answer: GridPage(SkuRuleRow),
    },
    async (request) => ok(request, await skuRulePage(deps.db, seller(request).tenantId, request.query)),
  );

  route.put(
    '/api/inventory/stock-allocation/marketplace',
    {
      summary: "Give a master code a push rule of its own in a store (it replaces the store's)",
      body: SkuRuleBody,
      answer: SkuRuleKey,
    },
    async (request) => ok(request, await saveSkuRule(deps, seller(request), request.body), 'push.rule.saved'),
  );

  route.delete(
    '/api/inventory/stock-allocation/marketplace',
    {
      summary: "Remove a master code's own rule in a store (the store's applies again)",
      query: SkuRuleKey,
      answer: SkuRuleKey,
    },
    async (request) =>
      ok(request, await deleteSkuRule(deps, seller(request), request.query), 'push.rule.removed'),
  );

  route.get(
    '/api/logistic/sync-qty-log',
    {
      summary: 'The push log: every figure told to a channel, why, which try and its answer, for ag-grid',
      query: PushLogQuery,
      answer: PushLogPage,
    },
    async (request) => ok(request, await pushLogPage(deps.db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/logistic/sync-qty-log/queue',
    {
      summary:
        "What a store's push has still to tell its channel: figures waiting, and retries with their try",
      query: PushQueueQuery,
      answer: PushQueueAnswer,
      errors: conflicts,
    },
    async (request) => ok(request, await pushQueueOf(deps, seller(request), request.query.store_id)),
  );

  route.get(
    '/api/inventory/manual-sync-status',
    {
      summary: "Each store's push: last call, pushes and failures of the last day, retries waiting",
      answer: SyncStatusAnswer,
    },
    async (request) => ok(request, await syncStatus(deps.db, seller(request).tenantId)),
  );

  route.post(
    '/api/inventory/manual-sync',
    {
      summary: "Push a store's linked SKUs (or one master code's) now, from the stock as it stands",
      body: ManualSyncBody,
      answer: ManualSyncAnswer,
      errors: conflicts,
    },
    async (request) =>
      ok(request, await syncStoreNow(deps, seller(request), request.body), 'push.sync_started'),
  );
};
