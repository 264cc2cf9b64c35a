import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { StoreChangesBody } from '@api/contracts/stores';
import { changeStore, disconnectStoreOf } from '@commands/stores/change-store';
import {
  importNow,
  scheduleStateSoon,
  scheduleStates,
  temporalError,
} from '@commands/stores/import-schedule';
import { refuseStore } from '@domain/platform/stores';
import { listStores, type Store } from '@integrations/stores';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STORE_PERMISSION, type StoreDeps, StoreView, storeOrNotFound, tags, viewsOf } from './common';

const refusalsWithConflict = { ...refusals, 409: refusals[404], 503: refusals[404] };

export const storeManageRoutes: FastifyPluginAsyncZod<StoreDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const access = { access: { permission: STORE_PERMISSION } } as const;
  const commandDeps = (request: FastifyRequest) => ({ db, workflows, log: request.log });

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
      const updated = await changeStore(commandDeps(request), session, store, request.body);
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
      const store = await disconnectStoreOf(commandDeps(request), session, request.params.id);
      return ok(request, await viewOf(store), 'store.disconnected');
    },
  );
};
