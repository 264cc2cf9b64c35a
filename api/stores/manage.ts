import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { StoreChangesBody } from '@api/contracts/stores';
import { isUuid } from '@domain/platform/ids';
import { refuseStore } from '@domain/platform/stores';
import {
  disconnectStore,
  listStores,
  type Store,
  type StoreChanges,
  updateStore,
} from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STORE_PERMISSION,
  type StoreDeps,
  StoreView,
  storeNotFound,
  storeOrNotFound,
  tags,
  viewsOf,
} from './common';
import {
  ensureImportSchedule,
  importNow,
  pauseImportSchedule,
  scheduleStateSoon,
  scheduleStates,
  temporalError,
} from './schedule';

const refusalsWithConflict = { ...refusals, 409: refusals[404], 503: refusals[404] };

export const storeManageRoutes: FastifyPluginAsyncZod<StoreDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const access = { access: { permission: STORE_PERMISSION } } as const;

  /** The store with its schedule; Temporal away shows the schedule as unknown. */
  const viewOf = async (store: Store) => {
    const state = await scheduleStateSoon(workflows, store);
    const [view] = await viewsOf(db, [store], new Map([[store.id, state]]));
    return view!;
  };

  app.get(
    '/api/setting/stores',
    {
      config: access,
      schema: {
        tags,
        summary: "The account's marketplace stores, with their import status",
        response: { 200: Ok(z.array(StoreView)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const stores = await listStores(db, tenantId);
      return ok(request, await viewsOf(db, stores, await scheduleStates(workflows, stores)));
    },
  );

  app.get(
    '/api/setting/stores/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'One store',
        params: IdParams,
        response: { 200: Ok(StoreView), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      return ok(request, await viewOf(await storeOrNotFound(db, tenantId, request.params.id)));
    },
  );

  app.put(
    '/api/setting/stores/:id',
    {
      config: access,
      schema: {
        tags,
        summary: "Change a store's name, order check interval (minutes, 1–1440) or warehouse",
        params: IdParams,
        body: StoreChangesBody,
        response: { 200: Ok(StoreView), ...refusalsWithConflict },
      },
    },
    async (request) => {
      const session = seller(request);
      const store = await storeOrNotFound(db, session.tenantId, request.params.id);
      const body = request.body;
      const changes: StoreChanges = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.import_interval_minutes !== undefined)
        changes.importIntervalMinutes = body.import_interval_minutes;
      if (body.warehouse_id !== undefined) {
        if (body.warehouse_id !== null) {
          const warehouse = isUuid(body.warehouse_id)
            ? await db
                .selectFrom('warehouses')
                .select('id')
                .where('tenant_id', '=', session.tenantId)
                .where('id', '=', body.warehouse_id)
                .where('kind', '=', 'warehouse')
                .executeTakeFirst()
            : undefined;
          if (!warehouse) throw refuseStore('WAREHOUSE_NOT_FOUND');
        }
        changes.warehouseId = body.warehouse_id;
      }
      if (Object.keys(changes).length === 0) throw refuseStore('NOTHING_TO_CHANGE');
      const updated = await updateStore(db, session.tenantId, store.id, session.userId, changes);
      if (!updated) throw storeNotFound();
      if (
        changes.importIntervalMinutes !== undefined &&
        changes.importIntervalMinutes !== store.importIntervalMinutes
      ) {
        try {
          await ensureImportSchedule(workflows, updated);
        } catch (error) {
          // Saved; the schedule follows at the next change or "Import now".
          request.log.warn({ err: error, storeId: store.id }, 'store import schedule not updated');
        }
      }
      return ok(request, await viewOf(updated), 'store.updated');
    },
  );

  app.post(
    '/api/setting/stores/:id/import',
    {
      config: access,
      schema: {
        tags,
        summary: "Import the store's orders now (refused while an import of it runs)",
        params: IdParams,
        response: { 200: Ok(StoreView), ...refusalsWithConflict },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const store = await storeOrNotFound(db, tenantId, request.params.id);
      if (store.status === 'disconnected') throw refuseStore('STORE_DISCONNECTED');
      try {
        await importNow(workflows, store);
      } catch (error) {
        throw temporalError(error);
      }
      return ok(request, await viewOf(store), 'store.import_started');
    },
  );

  app.post(
    '/api/setting/stores/:id/disconnect',
    {
      config: access,
      schema: {
        tags,
        summary: 'Disconnect a store: its orders stay, nothing more is imported, its tokens are deleted',
        params: IdParams,
        response: { 200: Ok(StoreView), ...refusalsWithConflict },
      },
    },
    async (request) => {
      const session = seller(request);
      await storeOrNotFound(db, session.tenantId, request.params.id);
      const store = await disconnectStore(db, session.tenantId, request.params.id, session.userId);
      if (!store) throw storeNotFound();
      try {
        await pauseImportSchedule(workflows, store);
      } catch (error) {
        // The store is disconnected: a run the schedule still starts reads nothing and ends.
        request.log.warn({ err: error, storeId: store.id }, 'store import schedule not paused');
      }
      return ok(request, await viewOf(store), 'store.disconnected');
    },
  );
};
