import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ChannelSkuGridQuery,
  ChannelSkuKey,
  ChannelSkuView,
  DownloadStatusView,
  LinkAnswer,
  LinkChannelSkuBody,
  StartDownloadBody,
} from '@api/contracts/channel-skus';
import { conflicts, router } from '@api/route';
import { requestDownloads } from '@commands/channels/download';
import { linkChannelSku, unlinkChannelSku } from '@commands/channels/link';
import { wholeStore } from '@commands/support/document';
import type { PermissionKey } from '@domain/access/permissions';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { downloadStatuses, listChannelSkus } from '@projections/channel-skus.queries';
import type { WorkflowDeps } from '@workflows/updates';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Products → download status (spec §2 "download status view", §3 "Download status"; issue 15): each store's
 * download of its marketplace items, starting downloads, the channel SKUs they brought in and linking them to
 * master codes. Reading needs `listings-index`; downloading and linking `listings-manage` (spec §6).
 */

export interface ChannelDeps {
  db: Db;
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

const READ = { permission: 'listings-index' satisfies PermissionKey } as const;
const MANAGE = { permission: 'listings-manage' satisfies PermissionKey } as const;

export const channelRoutes: FastifyPluginAsyncZod<ChannelDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const store = wholeStore(deps.store, 'channel SKU');
  const route = router(app, { tags: ['listings'], access: READ });

  route.get(
    '/api/products/download-status',
    {
      summary: "Each store's download of its marketplace items (new, pending, downloading, completed, error)",
      answer: z.array(DownloadStatusView),
    },
    async (request) => ok(request, await downloadStatuses(db, seller(request).tenantId)),
  );

  route.post(
    '/api/products/download-status',
    {
      summary: 'Download the chosen stores\u2019 items (at most 20; a store already downloading carries on)',
      access: MANAGE,
      body: StartDownloadBody,
      answer: z.array(DownloadStatusView),
      errors: conflicts,
    },
    async (request) => {
      const actor = seller(request);
      await requestDownloads({ db, workflows }, actor, request.body.store_ids);
      return ok(request, await downloadStatuses(db, actor.tenantId), 'channel_sku.download_started', {
        count: request.body.store_ids.length,
      });
    },
  );

  route.get(
    '/api/products/channel-skus',
    {
      summary: "The stores' channel SKUs and their master codes, for ag-grid's Infinite Row Model",
      query: ChannelSkuGridQuery,
      answer: GridPage(ChannelSkuView),
    },
    async (request) => ok(request, await listChannelSkus(db, seller(request).tenantId, request.query)),
  );

  route.post(
    '/api/products/channel-skus/link',
    {
      summary: "Link a channel SKU to a master code (the store's orders of that SKU follow)",
      access: MANAGE,
      body: LinkChannelSkuBody,
      answer: LinkAnswer,
      errors: conflicts,
    },
    async (request) => {
      const answer = await linkChannelSku({ db, store }, seller(request), request.body);
      return ok(request, answer, 'channel_sku.linked', { code: answer.sku.master_code?.code ?? '' });
    },
  );

  route.post(
    '/api/products/channel-skus/unlink',
    {
      summary: "Unlink a channel SKU (remove the seller's mapping of its SKU)",
      access: MANAGE,
      body: ChannelSkuKey,
      answer: LinkAnswer,
      errors: conflicts,
    },
    async (request) => {
      const answer = await unlinkChannelSku({ db, store }, seller(request), request.body);
      const still = answer.sku.master_code;
      return still
        ? ok(request, answer, 'channel_sku.unlinked_still_matched', { code: still.code })
        : ok(request, answer, 'channel_sku.unlinked');
    },
  );
};
