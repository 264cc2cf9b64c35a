import { z } from 'zod';
import { checkContent, LISTING_LIMITS, type ListingContent, refuseListing, tiersChanged } from './rules';

/**
 * A product listing (spec §2 "Product listings and promotions", §3 "Listing", §4): what a seller sells on the
 * marketplaces, edited in Kedai and published to up to 20 of the account's stores. Saved as a draft; each store it
 * is published to gets the channel's item (publish), later changes (sync), or is unlisted, each run by the publish
 * workflow (workflows/listing-publish.workflow.ts), which records every step it takes on the channel here, with
 * its undo (delete the half-created item), so a failed store is told apart from the others and a run retried after
 * a crash knows what it already did. One stream per listing; who and when ride in each event's metadata.
 */

// ---- events ----

const Id = z.string().min(1).max(100);
const Text = (max: number) => z.string().max(max);
const Image = z.union([z.strictObject({ id: Id }), z.strictObject({ url: z.string().min(1).max(2048) })]);
const MasterCodeLink = z.strictObject({ id: Id, type: z.enum(['standard', 'combo']) });
const Money = z.string().min(1).max(20);

export const SkuRow = z.strictObject({
  sellerSku: Text(200),
  price: Money,
  stock: z.number().int(),
  tierIndex: z.array(z.number().int()).max(LISTING_LIMITS.tiers),
  masterCode: MasterCodeLink.nullable(),
  promo: z.strictObject({ price: Money, start: Text(40), end: Text(40) }).nullable(),
});

export const ListingContentSchema = z.strictObject({
  platform: Id,
  storeIds: z.array(Id).max(LISTING_LIMITS.stores),
  productName: Text(LISTING_LIMITS.title),
  brand: Text(LISTING_LIMITS.brand),
  // Both absent in events from before categories came from the channel: those still read.
  brandId: Id.optional(),
  attributes: z
    .array(
      z.strictObject({
        attributeId: Id,
        values: z
          .array(
            z.strictObject({ valueId: Text(100), name: Text(LISTING_LIMITS.attributeValue), unit: Text(20) }),
          )
          .max(LISTING_LIMITS.attributeValues),
      }),
    )
    .max(LISTING_LIMITS.attributes)
    .optional(),
  model: Text(LISTING_LIMITS.model),
  categoryId: Id.or(z.literal('')),
  description: Text(LISTING_LIMITS.description),
  condition: z.enum(['new', 'used']),
  packageLength: z.number(),
  packageWidth: z.number(),
  packageHeight: z.number(),
  packageWeight: z.number(),
  logistics: z.array(Id).max(50),
  images: z.array(Image).max(LISTING_LIMITS.gallery),
  variantGallery: z.array(Image).max(LISTING_LIMITS.combinations),
  gtin: Text(LISTING_LIMITS.gtin),
  tiers: z
    .array(
      z.strictObject({
        name: Text(LISTING_LIMITS.tierName),
        options: z.array(Text(LISTING_LIMITS.optionName)),
      }),
    )
    .max(LISTING_LIMITS.tiers),
  skus: z.array(SkuRow).max(LISTING_LIMITS.combinations),
});

export const PUBLICATION_ACTIONS = ['publish', 'sync', 'unlist'] as const;
export type PublicationAction = (typeof PUBLICATION_ACTIONS)[number];
const Action = z.enum(PUBLICATION_ACTIONS);

/** The channel calls a run makes, in the order it makes them. */
export const PUBLICATION_STEPS = [
  'createItem',
  'updateItem',
  'updatePrice',
  'updateStock',
  'setListed',
] as const;
export type PublicationStep = (typeof PUBLICATION_STEPS)[number];

const ModelIds = z
  .array(z.strictObject({ sellerSku: Text(200), modelId: Text(100).optional() }))
  .max(LISTING_LIMITS.combinations);
const Run = { storeId: Id, runId: z.string().min(1).max(300) };

export const ListingCreated = z.strictObject({ listingId: Id, content: ListingContentSchema });
/** The listing's new content, whole; `unlinkedMasterCodes`: a Shopee tier change took the SKU rows' links off. */
export const ListingEdited = z.strictObject({
  content: ListingContentSchema,
  unlinkedMasterCodes: z.boolean(),
});
export const ListingDeleted = z.strictObject({});
export const ListingPublicationStarted = z.strictObject({ ...Run, action: Action });
/** A channel call of a run succeeded; `compensation` undoes it should a later step fail for good. */
export const ListingPublicationStepRecorded = z.strictObject({
  ...Run,
  step: z.enum(PUBLICATION_STEPS),
  itemId: Text(100).nullable(),
  compensation: z.enum(['deleteItem']).nullable(),
});
export const ListingPublicationCompensated = z.strictObject({
  ...Run,
  step: z.enum(PUBLICATION_STEPS),
  itemId: Text(100),
});
/** The store's item now holds the listing (published or synced), with the channel's ids. */
export const ListingPublished = z.strictObject({
  ...Run,
  action: z.enum(['publish', 'sync']),
  itemId: Text(100),
  models: ModelIds,
  at: Text(40),
});
export const ListingUnlisted = z.strictObject({ ...Run, at: Text(40) });
/**
 * A run failed for good: why, and the item it left on the channel when its undo could not run (null: nothing left,
 * or the item was there before the run).
 */
export const ListingPublicationFailed = z.strictObject({
  ...Run,
  action: Action,
  reason: Text(500),
  itemLeft: Text(100).nullable(),
});

export const listingEvents = {
  ListingCreated,
  ListingEdited,
  ListingDeleted,
  ListingPublicationStarted,
  ListingPublicationStepRecorded,
  ListingPublicationCompensated,
  ListingPublished,
  ListingUnlisted,
  ListingPublicationFailed,
} as const;

export type ListingEventType = keyof typeof listingEvents;
export type ListingEvent = {
  [Type in ListingEventType]: { type: Type; data: z.infer<(typeof listingEvents)[Type]> };
}[ListingEventType];
export const LISTING_EVENT_TYPES = Object.keys(listingEvents) as ListingEventType[];

// ---- state ----

/** Where a listing stands on one store. */
export interface StorePublication {
  /** The channel's item; null until published. */
  itemId: string | null;
  models: { sellerSku: string; modelId?: string | undefined }[];
  listed: boolean;
  /** The run in progress (publish in progress, syncing, unlisting); null: none. */
  running: { runId: string; action: PublicationAction } | null;
  /** The last channel call the current or last run made (the console's progress). */
  step: PublicationStep | null;
  /** When Kedai last wrote the listing to the channel (synced). */
  syncedAt: string | null;
  /** The last run's failure; null after a success. */
  error: string | null;
  /** An item a failed publish left on the channel, marked for the seller to remove. */
  itemLeft: string | null;
}

export interface OpenListing {
  status: 'draft' | 'published' | 'deleted';
  listingId: string;
  content: ListingContent;
  stores: Record<string, StorePublication>;
}

export type ListingState = { status: 'none' } | OpenListing;

export const initialState: ListingState = { status: 'none' };

const idleStore: StorePublication = {
  itemId: null,
  models: [],
  listed: false,
  running: null,
  step: null,
  syncedAt: null,
  error: null,
  itemLeft: null,
};

const storeOf = (state: OpenListing, storeId: string) => state.stores[storeId] ?? idleStore;

function withStore(state: OpenListing, storeId: string, change: Partial<StorePublication>): OpenListing {
  const stores = { ...state.stores, [storeId]: { ...storeOf(state, storeId), ...change } };
  const published = Object.values(stores).some((store) => store.itemId !== null);
  return {
    ...state,
    stores,
    status: state.status === 'deleted' ? 'deleted' : published ? 'published' : 'draft',
  };
}

export function evolve(state: ListingState, event: ListingEvent): ListingState {
  if (event.type === 'ListingCreated')
    return { status: 'draft', listingId: event.data.listingId, content: event.data.content, stores: {} };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ListingEdited':
      return { ...state, content: event.data.content };
    case 'ListingDeleted':
      return { ...state, status: 'deleted' };
    case 'ListingPublicationStarted':
      return withStore(state, event.data.storeId, {
        running: { runId: event.data.runId, action: event.data.action },
        step: null,
      });
    case 'ListingPublicationStepRecorded':
      // A created item is the store's as soon as it exists, so a run retried after a crash does not create another.
      return withStore(state, event.data.storeId, {
        step: event.data.step,
        ...(event.data.step === 'createItem' && event.data.itemId ? { itemId: event.data.itemId } : {}),
      });
    case 'ListingPublicationCompensated':
      return withStore(state, event.data.storeId, { itemId: null, models: [], listed: false });
    case 'ListingPublished':
      return withStore(state, event.data.storeId, {
        itemId: event.data.itemId,
        models: event.data.models,
        listed: true,
        running: null,
        syncedAt: event.data.at,
        error: null,
        itemLeft: null,
      });
    case 'ListingUnlisted':
      return withStore(state, event.data.storeId, {
        listed: false,
        running: null,
        syncedAt: event.data.at,
        error: null,
      });
    case 'ListingPublicationFailed':
      // An item left behind stays the store's, so the next run syncs it rather than creating a second one.
      return withStore(state, event.data.storeId, {
        running: null,
        error: event.data.reason,
        itemLeft: event.data.itemLeft,
      });
    default: {
      const unknown: never = event;
      throw new Error(`unknown listing event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

type RunCommand = { storeId: string; runId: string };

export type ListingCommand =
  | {
      type: 'SaveListing';
      listingId: string;
      content: ListingContent;
      /** The person's answers to the editor's questions (§5): unlink master codes, skip the sync. */
      confirm: { unlinkMasterCodes: boolean; skipSync: boolean };
      /** When each published store's channel copy last changed, as the channel says (download keeps it). */
      channelChangedAt: Record<string, string>;
    }
  | { type: 'DeleteListing' }
  | ({ type: 'StartPublication'; action: PublicationAction } & RunCommand)
  | ({
      type: 'RecordPublicationStep';
      step: PublicationStep;
      itemId: string | null;
      compensation: 'deleteItem' | null;
    } & RunCommand)
  | ({ type: 'RecordCompensation'; step: PublicationStep; itemId: string } & RunCommand)
  | ({
      type: 'RecordPublished';
      action: 'publish' | 'sync';
      itemId: string;
      models: { sellerSku: string; modelId?: string | undefined }[];
      at: string;
    } & RunCommand)
  | ({ type: 'RecordUnlisted'; at: string } & RunCommand)
  | ({
      type: 'RecordPublicationFailed';
      action: PublicationAction;
      reason: string;
      itemLeft: string | null;
    } & RunCommand);

// ---- decide ----

/** Whether the listing is being written to any store: no edit lands in the middle of a run. */
export const isRunning = (state: OpenListing) => Object.values(state.stores).some((store) => store.running);

/** The stores whose channel copy changed after Kedai last wrote it: the seller syncs first, or skips (§5). */
export function changedOnChannel(state: OpenListing, channelChangedAt: Record<string, string>): string[] {
  return Object.entries(state.stores)
    .filter(([storeId, store]) => {
      const changed = channelChangedAt[storeId];
      return (
        store.itemId !== null &&
        store.syncedAt !== null &&
        changed !== undefined &&
        Date.parse(changed) > Date.parse(store.syncedAt)
      );
    })
    .map(([storeId]) => storeId);
}

/** The actions a listing's state allows on one store, so the console's buttons come from the rule. */
export function storeActions(state: OpenListing, storeId: string): PublicationAction[] {
  const store = storeOf(state, storeId);
  if (state.status === 'deleted' || store.running) return [];
  if (store.itemId === null) return state.content.storeIds.includes(storeId) ? ['publish'] : [];
  return store.listed ? ['sync', 'unlist'] : ['sync'];
}

function startProblem(state: OpenListing, storeId: string, action: PublicationAction) {
  if (state.status === 'deleted') return refuseListing('LISTING_DELETED');
  const store = storeOf(state, storeId);
  if (store.running) return refuseListing('PUBLISH_IN_PROGRESS');
  if (action === 'publish') {
    if (!state.content.storeIds.includes(storeId)) return refuseListing('STORE_NOT_FOUND');
    if (store.itemId !== null) return refuseListing('ALREADY_PUBLISHED');
  } else if (store.itemId === null) return refuseListing('NOT_PUBLISHED');
  return null;
}

export function decide(command: ListingCommand, state: ListingState): ListingEvent[] {
  if (command.type === 'SaveListing') return decideSave(command, state);
  if (state.status === 'none') throw refuseListing('LISTING_NOT_FOUND');
  // A run's records name the run: one that is no longer the store's (a late retry of an ended run) records nothing.
  const current = (run: RunCommand) => storeOf(state, run.storeId).running?.runId === run.runId;
  switch (command.type) {
    case 'DeleteListing':
      if (state.status === 'deleted') return [];
      if (isRunning(state)) throw refuseListing('PUBLISH_IN_PROGRESS');
      return [{ type: 'ListingDeleted', data: {} }];
    case 'StartPublication': {
      if (current(command)) return [];
      const problem = startProblem(state, command.storeId, command.action);
      if (problem) throw problem;
      const { type: _type, ...data } = command;
      return [{ type: 'ListingPublicationStarted', data }];
    }
    case 'RecordPublicationStep': {
      if (!current(command)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ListingPublicationStepRecorded', data }];
    }
    case 'RecordCompensation': {
      if (!current(command)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ListingPublicationCompensated', data }];
    }
    case 'RecordPublished': {
      if (!current(command)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ListingPublished', data }];
    }
    case 'RecordUnlisted': {
      if (!current(command)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ListingUnlisted', data }];
    }
    case 'RecordPublicationFailed': {
      if (!current(command)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'ListingPublicationFailed', data: { ...data, reason: data.reason.slice(0, 500) } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown listing command ${(unknown as { type: string }).type}`);
    }
  }
}

function decideSave(
  command: Extract<ListingCommand, { type: 'SaveListing' }>,
  state: ListingState,
): ListingEvent[] {
  checkContent(command.content);
  if (state.status === 'none')
    return [{ type: 'ListingCreated', data: { listingId: command.listingId, content: command.content } }];
  if (state.status === 'deleted') throw refuseListing('LISTING_DELETED');
  if (isRunning(state)) throw refuseListing('PUBLISH_IN_PROGRESS');
  if (!command.confirm.skipSync) {
    const changed = changedOnChannel(state, command.channelChangedAt);
    if (changed.length > 0) throw refuseListing('SYNC_BEFORE_EDIT', { stores: changed.length });
  }
  let content = command.content;
  const unlink =
    content.platform === 'shopee' &&
    tiersChanged(state.content.tiers, content.tiers) &&
    content.skus.some((sku) => sku.masterCode !== null);
  if (unlink) {
    if (!command.confirm.unlinkMasterCodes) throw refuseListing('TIERS_UNLINK_MASTER_CODES');
    content = { ...content, skus: content.skus.map((sku) => ({ ...sku, masterCode: null })) };
  }
  if (JSON.stringify(content) === JSON.stringify(state.content)) return [];
  return [{ type: 'ListingEdited', data: { content, unlinkedMasterCodes: unlink } }];
}

export const listingDecider = { initial: initialState, evolve, decide };

// ---- stream ----

export const LISTING_CATEGORY = 'listing';

/** `listing-<tenant>.<listingId>`: one stream per listing. */
export const listingStreamId = (tenantId: string, listingId: string) =>
  `${LISTING_CATEGORY}-${tenantId}.${listingId}`;

/**
 * The workflow of one run on one store: its business key, so starting the same run twice (a double click, a retried
 * request, a restarted worker) starts it once. `revision`: the listing's revision the run writes.
 */
export const publicationRunId = (
  tenantId: string,
  listingId: string,
  storeId: string,
  action: PublicationAction,
  revision: number,
) => `listing-${action}-${tenantId}-${listingId}-${storeId}-${revision}`;
