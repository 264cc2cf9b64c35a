import type { BulkEditBody } from '@api/contracts/listings';
import { refuseListing } from '@domain/listings/rules';
import type { Language } from '@infra/i18n';
import type { z } from 'zod';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { eachRefusable } from '../support/refusal';
import { changeListing, loadListing } from './listing';
import { type ListingDeps, listingIdOf, personContext } from './support';

type Body = z.output<typeof BulkEditBody>;

/**
 * The bulk edit (`/products/listings-bulk`): several listings' names, prices and stock from one grid, saved as one
 * command per listing, each against the revision the grid read. A listing refused (its rules, a change made since, a
 * run in progress) is answered with its reason; the others are saved all the same.
 */
export async function bulkEditListings(
  deps: ListingDeps,
  actor: Actor & { language: Language },
  body: Body,
): Promise<Answered<{ saved: number; failed: { id: string; code: number; msg: string }[] }>> {
  let saved = 0;
  const failed: { id: string; code: number; msg: string }[] = [];
  for (const edit of body.listings) {
    const done = await eachRefusable(actor.language, () => editOne(deps, actor, edit));
    if ('refused' in done) failed.push({ id: edit.id, ...done.refused });
    else saved += 1;
  }
  return [{ saved, failed }, 'listing.bulk_saved', { count: saved }];
}

async function editOne(deps: ListingDeps, actor: Actor, edit: Body['listings'][number]) {
  const listingId = listingIdOf(edit.id);
  const { state } = await loadListing(deps.store, actor.tenantId, listingId);
  if (state.status === 'none') throw refuseListing('LISTING_NOT_FOUND');
  const changes = new Map(edit.skus.map((sku) => [sku.seller_sku.toLowerCase(), sku]));
  const content = {
    ...state.content,
    productName: edit.product_name?.trim() ?? state.content.productName,
    skus: state.content.skus.map((sku) => {
      const change = changes.get(sku.sellerSku.toLowerCase());
      return {
        ...sku,
        price: change?.price !== undefined ? Number(change.price).toFixed(2) : sku.price,
        stock: change?.stock ?? sku.stock,
      };
    }),
  };
  await changeListing(
    deps.store,
    listingId,
    // A bulk edit changes no tiers and no links; it is made against what the grid read, channel changes included.
    {
      type: 'SaveListing',
      listingId,
      content,
      confirm: { unlinkMasterCodes: false, skipSync: true },
      channelChangedAt: {},
    },
    { ...personContext(actor, 'bulk-edit'), expectedRevision: edit.revision },
  );
}
