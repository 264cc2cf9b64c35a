import {
  beginDownload,
  downloadableStore,
  downloadItemPage,
  failDownload,
  finishDownload,
} from '@commands/channels/download';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { ChannelOf } from '@integrations/channel';
import type { Kysely } from 'kysely';
import { final } from './final';

/**
 * The item download's activities (workflows/item-download.workflow.ts): the store's download status, and one page
 * of its items through the channel port. A channel failure is thrown for Temporal to retry as its kind says (a
 * refused authorisation or a bad request is not retried); a store gone or disconnected is not retried either.
 */

export interface ItemDownloadDeps {
  db: Kysely<Database>;
  store: EventStore;
  channelOf: ChannelOf;
}

export function createItemDownloadActivities(deps: ItemDownloadDeps) {
  const { db } = deps;
  return {
    async beginItemDownload(input: { tenantId: string; storeId: string }) {
      return beginDownload(db, input.tenantId, input.storeId);
    },

    async downloadItemPage(input: { tenantId: string; storeId: string; cursor: string }) {
      return final(async () => {
        const store = await downloadableStore(db, input.tenantId, input.storeId);
        return downloadItemPage(deps, await deps.channelOf(store), input);
      });
    },

    async finishItemDownload(input: { tenantId: string; storeId: string; startedAt: number }) {
      return finishDownload(deps, input);
    },

    async failItemDownload(input: { tenantId: string; storeId: string; message: string }) {
      await failDownload(db, input.tenantId, input.storeId, input.message);
    },
  };
}
