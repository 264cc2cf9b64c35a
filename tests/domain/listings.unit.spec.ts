import {
  changedOnChannel,
  type ListingCommand,
  type ListingEvent,
  type ListingState,
  listingDecider,
  publicationRunId,
  storeActions,
} from '@domain/listings/listing';
import { contentProblems, type ListingContent, listingErrors } from '@domain/listings/rules';
import { DomainError } from '@domain/shared/errors';
import { translate } from '@infra/i18n';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const listing = specFor<ListingCommand, ListingEvent, ListingState>(listingDecider);

const sku = (
  sellerSku: string,
  tierIndex: number[],
  masterCode: { id: string; type: 'standard' | 'combo' } | null = null,
) => ({
  sellerSku,
  price: '12.90',
  stock: 5,
  tierIndex,
  masterCode,
  promo: null,
});

const content: ListingContent = {
  platform: 'shopee',
  storeIds: ['s1', 's2'],
  productName: 'Batik shirt',
  brand: 'Kedai',
  model: 'B1',
  categoryId: '100017',
  description: 'Hand-drawn batik',
  condition: 'new',
  packageLength: 30,
  packageWidth: 20,
  packageHeight: 3,
  packageWeight: 0.3,
  logistics: ['2000'],
  images: [{ url: 'https://img.test/a.jpg' }, { id: '2f9e5f5e-4b7c-4f3e-8d6a-1a2b3c4d5e6f' }],
  variantGallery: [],
  gtin: '00',
  tiers: [
    { name: 'Colour', options: ['Red', 'Blue'] },
    { name: 'Size', options: ['M', 'L'] },
  ],
  skus: [
    sku('BATIK-RM', [0, 0], { id: 'mc1', type: 'standard' }),
    sku('BATIK-RL', [0, 1]),
    sku('BATIK-BM', [1, 0]),
    sku('BATIK-BL', [1, 1], { id: 'mc2', type: 'combo' }),
  ],
};

const created: ListingEvent = { type: 'ListingCreated', data: { listingId: 'l1', content } };
const save = (
  changed: Partial<ListingContent>,
  confirm = { unlinkMasterCodes: false, skipSync: false },
  channelChangedAt = {},
): ListingCommand => ({
  type: 'SaveListing',
  listingId: 'l1',
  content: { ...content, ...changed },
  confirm,
  channelChangedAt,
});
const run = { storeId: 's1', runId: 'run-1' };
const started: ListingEvent = { type: 'ListingPublicationStarted', data: { ...run, action: 'publish' } };
const published: ListingEvent = {
  type: 'ListingPublished',
  data: {
    ...run,
    action: 'publish',
    itemId: '9001',
    models: [{ sellerSku: 'BATIK-RM', modelId: '1' }],
    at: '2026-11-27T10:00:00.000Z',
  },
};

/** The codes and English messages of the problems of `changed` content, by field. */
function problems(changed: Partial<ListingContent>) {
  return contentProblems({ ...content, ...changed }).map(({ field, error }) => ({
    field,
    code: error.refusal.code,
    msg: translate('en-us', error.refusal.key, error.params),
  }));
}

describe('listing content rules (spec §5, §8)', () => {
  it('accepts a listing with two tiers whose SKU rows are their combinations', () => {
    expect(problems({})).toEqual([]);
  });

  it('needs at least one store and at most 20', () => {
    expect(problems({ storeIds: [] })).toEqual([{ field: 'store_ids', code: 700, msg: 'No store selected' }]);
    const stores = Array.from({ length: 21 }, (_, i) => `s${i}`);
    expect(problems({ storeIds: stores })).toEqual([
      { field: 'store_ids', code: 701, msg: 'selected store count exceeds the limit of 20' },
    ]);
    expect(problems({ storeIds: stores.slice(0, 20) })).toEqual([]);
  });

  it('needs an image, a category and logistics, all at once', () => {
    expect(problems({ images: [], categoryId: '', logistics: [] })).toEqual([
      { field: 'category_id', code: 703, msg: 'No category selected' },
      { field: 'logistics', code: 704, msg: 'No logistics configured' },
      { field: 'images', code: 702, msg: 'No image' },
    ]);
  });

  it('refuses the same image twice and more than 9', () => {
    expect(
      problems({ images: [{ url: 'https://img.test/a.jpg' }, { url: 'https://img.test/a.jpg' }] })[0],
    ).toMatchObject({
      field: 'images',
      code: 705,
    });
    const many = Array.from({ length: 10 }, (_, i) => ({ url: `https://img.test/${i}.jpg` }));
    expect(problems({ images: many })[0]).toMatchObject({
      code: 705,
      msg: 'The gallery holds at most 9 images.',
    });
  });

  it('takes a variant gallery with an image for every option of the first tier, or none', () => {
    expect(
      problems({
        variantGallery: [{ url: 'https://img.test/red.jpg' }, { url: 'https://img.test/blue.jpg' }],
      }),
    ).toEqual([]);
    expect(problems({ variantGallery: [{ url: 'https://img.test/red.jpg' }] })).toEqual([
      {
        field: 'variant_gallery',
        code: 706,
        msg: 'The variant gallery must hold an image for every variant or for none.',
      },
    ]);
  });

  it('allows 50 Shopee combinations and refuses 51', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    const rows = (a: number, b: number) =>
      Array.from({ length: a * b }, (_, i) => sku(`S${i}`, [Math.floor(i / b), i % b]));
    expect(
      problems({
        tiers: [
          { name: 'A', options: options(10) },
          { name: 'B', options: options(5) },
        ],
        skus: rows(10, 5),
      }),
    ).toEqual([]);
    expect(
      problems({
        tiers: [
          { name: 'A', options: options(17) },
          { name: 'B', options: options(3) },
        ],
        skus: rows(17, 3),
      }),
    ).toEqual([
      { field: 'tiers', code: 707, msg: 'Shopee allows at most 50 variant combinations (51 given).' },
    ]);
  });

  it('refuses a third tier, a missing combination and a repeated seller SKU', () => {
    expect(problems({ tiers: [...content.tiers, { name: 'Fit', options: ['Slim'] }] })[0]).toMatchObject({
      code: 709,
    });
    expect(problems({ skus: content.skus.slice(0, 3) })[0]).toMatchObject({ field: 'skus', code: 710 });
    const repeated = content.skus.map((row, i) => (i === 3 ? { ...row, sellerSku: 'batik-rm' } : row));
    expect(problems({ skus: repeated })).toEqual([
      { field: 'skus/3/seller_sku', code: 711, msg: 'Seller SKU batik-rm is used twice in this listing.' },
    ]);
  });

  it('limits the title and checks prices and promotions', () => {
    expect(problems({ productName: 'x'.repeat(121) })[0]).toMatchObject({ field: 'product_name', code: 708 });
    expect(problems({ productName: ' ' })[0]).toMatchObject({
      field: 'product_name',
      code: 708,
      msg: 'Enter the product name.',
    });
    const free = content.skus.map((row, i) => (i === 0 ? { ...row, price: '0' } : row));
    expect(problems({ skus: free })[0]).toMatchObject({ field: 'skus/0/price', code: 712 });
    const shortPromo = content.skus.map((row, i) =>
      i === 1
        ? { ...row, promo: { price: '9.90', start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' } }
        : row,
    );
    expect(problems({ skus: shortPromo })[0]).toMatchObject({ field: 'skus/1/promo', code: 712 });
  });

  it('has a single SKU without tiers', () => {
    expect(problems({ tiers: [], skus: [sku('BATIK', [])] })).toEqual([]);
    expect(problems({ tiers: [], skus: [sku('A', []), sku('B', [])] })[0]).toMatchObject({ code: 710 });
  });
});

describe('listing decider', () => {
  it('creates a draft on the first save and refuses bad content with every problem', () => {
    listing([]).when(save({})).then([created]);
    let thrown: unknown;
    try {
      listingDecider.decide(save({ images: [], logistics: [] }), listingDecider.initial);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).fields.map((f) => f.field)).toEqual(['logistics', 'images']);
  });

  it('records an edit, and nothing for a save that changes nothing', () => {
    listing([created]).when(save({})).then([]);
    listing([created])
      .when(save({ productName: 'Batik shirt, long sleeve' }))
      .then([
        {
          type: 'ListingEdited',
          data: {
            content: { ...content, productName: 'Batik shirt, long sleeve' },
            unlinkedMasterCodes: false,
          },
        },
      ]);
  });

  it('asks before a Shopee tier change unlinks the master codes, and unlinks them once confirmed', () => {
    const tiers = [{ name: 'Colour', options: ['Red', 'Blue'] }];
    const skus = [sku('BATIK-R', [0], { id: 'mc1', type: 'standard' }), sku('BATIK-B', [1])];
    listing([created]).when(save({ tiers, skus })).thenThrows('TIERS_UNLINK_MASTER_CODES');
    expect(translate('en-us', listingErrors.TIERS_UNLINK_MASTER_CODES.key)).toBe(
      'Changing Shopee variant tiers removes the master code link',
    );
    listing([created])
      .when(save({ tiers, skus }, { unlinkMasterCodes: true, skipSync: false }))
      .then([
        {
          type: 'ListingEdited',
          data: {
            content: { ...content, tiers, skus: skus.map((row) => ({ ...row, masterCode: null })) },
            unlinkedMasterCodes: true,
          },
        },
      ]);
  });

  it('asks to sync before editing a listing changed on the channel since it was written, or to skip', () => {
    const later = { s1: '2026-11-27T11:00:00.000Z' };
    listing([created, started, published])
      .when(save({ brand: 'Other' }, undefined, later))
      .thenThrows('SYNC_BEFORE_EDIT');
    expect(translate('en-us', listingErrors.SYNC_BEFORE_EDIT.key)).toBe('Sync before edit, or skip to edit');
    listing([created, started, published])
      .when(save({ brand: 'Other' }, { unlinkMasterCodes: false, skipSync: true }, later))
      .then([
        {
          type: 'ListingEdited',
          data: { content: { ...content, brand: 'Other' }, unlinkedMasterCodes: false },
        },
      ]);
    // Unchanged on the channel since: no question.
    listing([created, started, published])
      .when(save({ brand: 'Other' }, undefined, { s1: '2026-11-27T10:00:00.000Z' }))
      .then([
        {
          type: 'ListingEdited',
          data: { content: { ...content, brand: 'Other' }, unlinkedMasterCodes: false },
        },
      ]);
  });

  it('refuses an edit or a second run while a run writes the listing to a store', () => {
    listing([created, started])
      .when(save({ brand: 'Other' }))
      .thenThrows('PUBLISH_IN_PROGRESS');
    listing([created, started])
      .when({ type: 'StartPublication', storeId: 's1', runId: 'run-2', action: 'publish' })
      .thenThrows('PUBLISH_IN_PROGRESS');
    // The same run asked again records nothing.
    listing([created, started])
      .when({ type: 'StartPublication', ...run, action: 'publish' })
      .then([]);
  });

  it('publishes to a store of the listing only, and syncs or unlists only where published', () => {
    listing([created])
      .when({ type: 'StartPublication', storeId: 's9', runId: 'r', action: 'publish' })
      .thenThrows('STORE_NOT_FOUND');
    listing([created])
      .when({ type: 'StartPublication', storeId: 's1', runId: 'r', action: 'sync' })
      .thenThrows('NOT_PUBLISHED');
    listing([created, started, published])
      .when({ type: 'StartPublication', storeId: 's1', runId: 'r', action: 'publish' })
      .thenThrows('ALREADY_PUBLISHED');
  });

  it('keeps each store apart: one failing leaves the other published', () => {
    const other = { storeId: 's2', runId: 'run-2' };
    const history: ListingEvent[] = [
      created,
      started,
      { type: 'ListingPublicationStarted', data: { ...other, action: 'publish' } },
      {
        type: 'ListingPublicationStepRecorded',
        data: { ...other, step: 'createItem', itemId: '77', compensation: 'deleteItem' },
      },
      published,
      { type: 'ListingPublicationCompensated', data: { ...other, step: 'createItem', itemId: '77' } },
      {
        type: 'ListingPublicationFailed',
        data: { ...other, action: 'publish', reason: 'price refused', itemLeft: null },
      },
    ];
    const state = history.reduce(listingDecider.evolve, listingDecider.initial);
    if (state.status === 'none') throw new Error('no listing');
    expect(state.status).toBe('published');
    expect(state.stores.s1).toMatchObject({ itemId: '9001', listed: true, running: null, error: null });
    expect(state.stores.s2).toMatchObject({ itemId: null, running: null, error: 'price refused' });
    expect(storeActions(state, 's1')).toEqual(['sync', 'unlist']);
    expect(storeActions(state, 's2')).toEqual(['publish']);
  });

  it('keeps a created item as the store’s, so a retried run never creates a second one', () => {
    const step: ListingEvent = {
      type: 'ListingPublicationStepRecorded',
      data: { ...run, step: 'createItem', itemId: '9001', compensation: 'deleteItem' },
    };
    const state = [created, started, step].reduce(listingDecider.evolve, listingDecider.initial);
    if (state.status === 'none') throw new Error('no listing');
    expect(state.stores.s1).toMatchObject({ itemId: '9001', step: 'createItem' });
    // An item a failed publish left is marked and kept: the next run syncs it.
    const failed = listingDecider.evolve(state, {
      type: 'ListingPublicationFailed',
      data: { ...run, action: 'publish', reason: 'stock refused', itemLeft: '9001' },
    });
    if (failed.status === 'none') throw new Error('no listing');
    expect(failed.stores.s1).toMatchObject({ itemId: '9001', itemLeft: '9001', running: null });
  });

  it('ignores the records of a run that is no longer the store’s', () => {
    listing([created, started, published])
      .when({
        type: 'RecordPublicationStep',
        ...run,
        step: 'updateStock',
        itemId: '9001',
        compensation: null,
      })
      .then([]);
  });

  it('names a run by listing, store, action and revision', () => {
    expect(publicationRunId('t1', 'l1', 's1', 'publish', 3)).toBe('listing-publish-t1-l1-s1-3');
  });

  it('tells the stores changed on the channel after the last write', () => {
    const state = [created, started, published].reduce(listingDecider.evolve, listingDecider.initial);
    if (state.status === 'none') throw new Error('no listing');
    expect(
      changedOnChannel(state, { s1: '2026-11-27T10:00:01.000Z', s2: '2030-01-01T00:00:00.000Z' }),
    ).toEqual(['s1']);
  });

  it('deletes a listing, then refuses to edit it', () => {
    listing([created])
      .when({ type: 'DeleteListing' })
      .then([{ type: 'ListingDeleted', data: {} }]);
    listing([created, { type: 'ListingDeleted', data: {} }])
      .when(save({ brand: 'x' }))
      .thenThrows('LISTING_DELETED');
  });
});
