import {
  beginDownload,
  downloadableStore,
  downloadItemPage,
  failDownload,
  finishDownload,
} from '@commands/channels/download';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { translate } from '@infra/i18n';
import { ChannelError, type ChannelOf } from '@integrations/channel';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';

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
      try {
        const store = await downloadableStore(db, input.tenantId, input.storeId);
        return await downloadItemPage(deps, await deps.channelOf(store), input);
      } catch (error) {
        const refused = refusalOf(error);
        if (refused) {
          const message = translate('en-us', refused.refusal.key, refused.params);
          throw ApplicationFailure.create({ type: refused.code, message, nonRetryable: true });
        }
        if (!(error instanceof ChannelError)) throw error;
        throw ApplicationFailure.create({
          type: error.kind,
          message: error.message,
          nonRetryable: !error.retryable,
          ...(error.options.retryAfterMs !== undefined ? { nextRetryDelay: error.options.retryAfterMs } : {}),
        });
      }
    },

    async finishItemDownload(input: { tenantId: string; storeId: string; startedAt: number }) {
      return finishDownload(deps, input);
    },

    async failItemDownload(input: { tenantId: string; storeId: string; message: string }) {
      await failDownload(db, input.tenantId, input.storeId, input.message);
    },
  };
}
