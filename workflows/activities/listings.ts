import { announceLinks } from '@commands/channels/channel-skus';
import { handleListingCommand, loadListing } from '@commands/listings/listing';
import { storedImage } from '@commands/support/images';
import type { ListingCommand, OpenListing, PublicationStep } from '@domain/listings/listing';
import { variantInfoOf } from '@domain/listings/rules';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import {
  ChannelError,
  type ChannelItemDraft,
  type ChannelOf,
  channelOfStore,
  type UpdateOutcome,
} from '@integrations/channel';
import type { Kysely } from 'kysely';
import type { ListingPublishInput } from '../listing-publish-protocol';
import { final } from './final';

/**
 * The listing publish workflow's activities: each channel call of a run (create or update the item, prices, stock,
 * list or unlist, and the undo: delete a half-created item) through the store's channel port, then recorded on the
 * listing under a command id made of the run and the step, so a retried activity records once. Creating an item is
 * the one call a retry could repeat on the channel: the channel's create looks for the item by its seller SKU
 * first (search_item on Shopee), so a worker killed between the channel's answer and the record, or a new run after
 * a failed one, finds the item that was made instead of making another. A channel
 * failure that may pass is retried (Temporal's policy, with backoff); one that will not, and a refusal, end the step
 * for good. The run's success writes the store's item and model ids into `channel_skus`, linked to the listing and
 * each row's master code, where the stock push finds them.
 */

export interface ListingActivityDeps {
  db: Kysely<Database>;
  store: EventStore;
  /** The store's channel adapter (integrations/channel: channelFor). */
  channelOf: ChannelOf;
}

export interface Run extends ListingPublishInput {
  runId: string;
}

/** The item a run writes: its id, its models' ids by seller SKU, and whether this run created it. */
export interface RunItem {
  itemId: string;
  models: { sellerSku: string; modelId?: string | undefined }[];
  created: boolean;
}

/** Model outcomes refused: a failure of the step (final unless every refusal may pass). */
function checkOutcomes(step: string, outcomes: UpdateOutcome[]) {
  const refused = outcomes.filter((outcome) => !outcome.ok);
  if (refused.length === 0) return;
  const reasons = refused.map((outcome) => (outcome.ok ? '' : outcome.reason)).join('; ');
  const retryable = refused.every((outcome) => !outcome.ok && outcome.retryable);
  throw new ChannelError('request', `${step}: ${reasons}`, { retryable });
}

export function createListingActivities(deps: ListingActivityDeps) {
  const { db, store } = deps;
  const channelOf = (run: Run) => channelOfStore(db, deps.channelOf, run.tenantId, run.storeId);

  async function listingOf(run: Run): Promise<OpenListing> {
    const { state } = await loadListing(store, run.tenantId, run.listingId);
    if (state.status === 'none') throw new Error(`listing ${run.listingId} not found`);
    return state;
  }

  const record = (run: Run, step: string, command: ListingCommand, at = new Date().toISOString()) =>
    handleListingCommand(store, run.listingId, command, {
      tenantId: run.tenantId,
      userId: run.userId,
      commandId: `${run.runId}:${step}`,
      correlationId: run.runId,
      occurredAt: at,
    });

  /** A channel call of the run succeeded (its undo, if any, with it). */
  const recordStep = (
    run: Run,
    step: PublicationStep,
    itemId: string,
    compensation: 'deleteItem' | null = null,
  ) =>
    record(run, step, {
      type: 'RecordPublicationStep',
      storeId: run.storeId,
      runId: run.runId,
      step,
      itemId,
      compensation,
    });

  /**
   * The listing as the channel takes it. An image uploaded to Kedai is served only to the account's users, so the
   * channel is handed its bytes (a data: URL) rather than an address it could not open.
   */
  async function draftOf(run: Run, listing: OpenListing): Promise<ChannelItemDraft> {
    const { content } = listing;
    const single = content.tiers.length === 0 ? content.skus[0] : undefined;
    const images = await Promise.all(
      content.images.map(async (image) => {
        if ('url' in image) return image.url;
        const stored = await storedImage(db, run.tenantId, 'listing', image.id);
        if (!stored)
          throw new ChannelError('request', 'an uploaded image of the listing is gone', { retryable: false });
        return `data:${stored.content_type};base64,${Buffer.from(stored.data).toString('base64')}`;
      }),
    );
    const dimensions = [content.packageLength, content.packageWidth, content.packageHeight];
    return {
      name: content.productName,
      description: content.description,
      categoryId: content.categoryId,
      ...(content.brand ? { brand: content.brand } : {}),
      ...(content.brandId ? { brandId: content.brandId } : {}),
      ...(content.attributes?.length
        ? {
            attributes: content.attributes.map((attribute) => ({
              attributeId: attribute.attributeId,
              values: attribute.values.map((value) => ({
                ...(value.valueId ? { valueId: value.valueId } : {}),
                name: value.name,
                ...(value.unit ? { unit: value.unit } : {}),
              })),
            })),
          }
        : {}),
      images,
      weightKg: content.packageWeight,
      ...(dimensions.every((value) => value > 0)
        ? {
            dimensionsCm: {
              length: content.packageLength,
              width: content.packageWidth,
              height: content.packageHeight,
            },
          }
        : {}),
      logistics: content.logistics,
      sellerSku: single?.sellerSku ?? content.skus[0]?.sellerSku ?? '',
      price: single?.price ?? content.skus[0]?.price ?? '0',
      stock: single?.stock ?? 0,
      condition: content.condition,
      gtin: content.gtin,
      tiers: content.tiers,
      models:
        content.tiers.length === 0
          ? []
          : content.skus.map((sku) => ({
              tierIndex: sku.tierIndex,
              sellerSku: sku.sellerSku,
              price: sku.price,
              stock: sku.stock,
            })),
    };
  }

  return {
    async createListingItem(run: Run): Promise<RunItem> {
      return final(async () => {
        const listing = await listingOf(run);
        const channel = await channelOf(run);
        const known = listing.stores[run.storeId]?.itemId;
        let item: RunItem | null = null;
        if (known) {
          const [found] = await channel.getItems([known]);
          item = {
            itemId: known,
            models: (found?.models ?? []).map((m) => ({ sellerSku: m.sellerSku, modelId: m.modelId })),
            created: true,
          };
        } else {
          // The channel's create takes an item an earlier attempt or run made (found by its seller SKU) rather than
          // adding a second: a worker killed between the channel's answer and the record below leaves one item.
          const created = await channel.createItem(await draftOf(run, listing));
          // An adopted item may be one the seller made: a failed run leaves it rather than deleting it.
          item = { itemId: created.itemId, models: created.models, created: !created.adopted };
        }
        await recordStep(run, 'createItem', item.itemId, item.created ? 'deleteItem' : null);
        return item;
      });
    },

    async updateListingItem(run: Run): Promise<RunItem> {
      return final(async () => {
        const listing = await listingOf(run);
        const itemId = listing.stores[run.storeId]?.itemId;
        if (!itemId)
          throw new ChannelError('not_found', 'the listing has no item on this store', { retryable: false });
        const channel = await channelOf(run);
        const updated = await channel.updateItem(itemId, await draftOf(run, listing));
        await recordStep(run, 'updateItem', itemId);
        return { itemId, models: updated.models, created: false };
      });
    },

    /** Prices and stock of each model (or of the item without variants), as the listing holds them now. */
    async pushListingPriceAndStock(run: Run, item: RunItem): Promise<void> {
      return final(async () => {
        const listing = await listingOf(run);
        const channel = await channelOf(run);
        const modelOf = new Map(item.models.map((model) => [model.sellerSku.toLowerCase(), model.modelId]));
        const targets = listing.content.skus.map((sku) => ({
          itemId: item.itemId,
          ...(listing.content.tiers.length > 0 && modelOf.get(sku.sellerSku.toLowerCase())
            ? { modelId: modelOf.get(sku.sellerSku.toLowerCase()) }
            : {}),
          sku,
        }));
        checkOutcomes(
          'price',
          await channel.updatePrice(targets.map(({ sku, ...at }) => ({ ...at, price: sku.price }))),
        );
        await recordStep(run, 'updatePrice', item.itemId);
        checkOutcomes(
          'stock',
          await channel.updateStock(targets.map(({ sku, ...at }) => ({ ...at, quantity: sku.stock }))),
        );
        await recordStep(run, 'updateStock', item.itemId);
      });
    },

    /** The store's SKUs into channel_skus (linked to the listing and master codes), then the run's success. */
    async completePublication(run: Run, item: RunItem): Promise<void> {
      return final(async () => {
        const listing = await listingOf(run);
        const at = new Date();
        const { content } = listing;
        const modelOf = new Map(
          item.models.map((model) => [model.sellerSku.toLowerCase(), model.modelId ?? '']),
        );
        const rows = content.skus.map((sku) => ({
          tenant_id: run.tenantId,
          store_id: run.storeId,
          item_id: item.itemId,
          model_id: content.tiers.length > 0 ? (modelOf.get(sku.sellerSku.toLowerCase()) ?? '') : '',
          seller_sku: sku.sellerSku,
          item_name: content.productName,
          model_name: variantInfoOf(content.tiers, sku.tierIndex)
            .map((info) => info.value)
            .join(','),
          price: sku.price,
          channel_stock: sku.stock,
          status: 'normal',
          master_code_id: sku.masterCode?.id ?? null,
          listing_id: run.listingId,
          updated_at: at,
        }));
        await db.transaction().execute(async (trx) => {
          // Models a sync took away are no longer the store's.
          await trx
            .deleteFrom('channel_skus')
            .where('tenant_id', '=', run.tenantId)
            .where('store_id', '=', run.storeId)
            .where('item_id', '=', item.itemId)
            .where(
              'model_id',
              'not in',
              rows.map((row) => row.model_id),
            )
            .execute();
          await trx
            .insertInto('channel_skus')
            .values(rows)
            .onConflict((oc) =>
              oc.columns(['tenant_id', 'store_id', 'item_id', 'model_id']).doUpdateSet((eb) => ({
                seller_sku: eb.ref('excluded.seller_sku'),
                item_name: eb.ref('excluded.item_name'),
                model_name: eb.ref('excluded.model_name'),
                price: eb.ref('excluded.price'),
                channel_stock: eb.ref('excluded.channel_stock'),
                status: eb.ref('excluded.status'),
                master_code_id: eb.ref('excluded.master_code_id'),
                listing_id: eb.ref('excluded.listing_id'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
        });
        // The channel now shows the stock typed into the listing: the stock push puts each linked SKU right.
        const linked = rows.filter((row) => row.master_code_id !== null);
        if (linked.length > 0)
          await announceLinks(
            store,
            run.tenantId,
            run.storeId,
            linked.map((row) => ({
              itemId: row.item_id,
              modelId: row.model_id,
              masterCodeId: row.master_code_id!,
            })),
          );
        // Recorded with the instant written above, so the listing is not taken as changed on the channel since.
        await record(
          run,
          'published',
          {
            type: 'RecordPublished',
            storeId: run.storeId,
            runId: run.runId,
            action: run.action === 'sync' ? 'sync' : 'publish',
            itemId: item.itemId,
            models: item.models.map((model) => ({
              sellerSku: model.sellerSku,
              ...(model.modelId ? { modelId: model.modelId } : {}),
            })),
            at: at.toISOString(),
          },
          at.toISOString(),
        );
      });
    },

    async unlistListingItem(run: Run): Promise<void> {
      return final(async () => {
        const listing = await listingOf(run);
        const itemId = listing.stores[run.storeId]?.itemId;
        if (!itemId)
          throw new ChannelError('not_found', 'the listing has no item on this store', { retryable: false });
        const channel = await channelOf(run);
        await channel.setListed(itemId, false);
        await recordStep(run, 'setListed', itemId);
        const at = new Date();
        await db
          .updateTable('channel_skus')
          .set({ status: 'unlisted', updated_at: at })
          .where('tenant_id', '=', run.tenantId)
          .where('store_id', '=', run.storeId)
          .where('item_id', '=', itemId)
          .execute();
        await record(
          run,
          'unlisted',
          { type: 'RecordUnlisted', storeId: run.storeId, runId: run.runId, at: at.toISOString() },
          at.toISOString(),
        );
      });
    },

    /** The undo of createItem: the half-made item goes, and the listing says so. */
    async deleteListingItem(run: Run, itemId: string): Promise<void> {
      return final(async () => {
        const channel = await channelOf(run);
        await channel.deleteItem(itemId).catch((error: unknown) => {
          // Gone already (an earlier attempt deleted it): the undo is done.
          if (!(error instanceof ChannelError && error.kind === 'not_found')) throw error;
        });
        await record(run, 'compensate-createItem', {
          type: 'RecordCompensation',
          storeId: run.storeId,
          runId: run.runId,
          step: 'createItem',
          itemId,
        });
      });
    },

    async failPublication(run: Run, reason: string, itemLeft: string | null): Promise<void> {
      await record(run, 'failed', {
        type: 'RecordPublicationFailed',
        storeId: run.storeId,
        runId: run.runId,
        action: run.action,
        reason,
        itemLeft,
      });
    },
  };
}

export type ListingActivities = ReturnType<typeof createListingActivities>;
