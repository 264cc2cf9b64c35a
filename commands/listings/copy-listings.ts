import { randomUUID } from 'node:crypto';
import type {
  CopyListingsAnswer,
  CopyListingsBody,
  ListingDetail,
  ParsedListingBody,
} from '@api/contracts/listings';
import { refuseListing } from '@domain/listings/rules';
import type { Language } from '@infra/i18n';
import type { z } from 'zod';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { eachRefusable } from '../support/refusal';
import { listingDetail } from './details';
import { saveListing } from './save-listing';
import type { ListingDeps } from './support';

type Body = z.output<typeof CopyListingsBody>;

/**
 * Copy listings (shell.md `/products/copy-listings`): each listing chosen becomes a new draft with the same content,
 * for the stores named (from one store to another) or its own, saved by the editor's use case (saveListing), so the
 * copy meets every rule a listing saved in the editor does (the stores the account's and of its platform, 1 to 20).
 * The copy sells the same master codes: copying is the person's choice to list them again, so it is not asked again.
 * A listing refused (missing, deleted, a store of another platform) is answered with its reason; the others are
 * copied all the same.
 */
export async function copyListings(
  deps: ListingDeps,
  actor: Actor & { language: Language },
  body: Body,
): Promise<Answered<CopyListingsAnswer>> {
  const copied: CopyListingsAnswer['copied'] = [];
  const failed: CopyListingsAnswer['failed'] = [];
  for (const sourceId of new Set(body.listing_ids.map((id) => id.toLowerCase()))) {
    const done = await eachRefusable(actor.language, async () => {
      const source = await listingDetail(deps, actor.tenantId, sourceId);
      if (source.status === 'deleted') throw refuseListing('LISTING_DELETED');
      const [saved] = await saveListing(deps, actor, {
        groupId: randomUUID(),
        body: bodyOf(source, body.store_ids ?? source.store_ids),
      });
      return saved.id;
    });
    if ('refused' in done) failed.push({ id: sourceId, ...done.refused });
    else copied.push({ source_id: sourceId, id: done.value });
  }
  return [{ copied, failed }, 'listing.copied', { count: copied.length }];
}

/** A listing as the editor's body again (the detail's fields are the body's), for `storeIds`. */
function bodyOf(detail: ListingDetail, storeIds: string[]): ParsedListingBody {
  const {
    id: _id,
    revision: _revision,
    status: _status,
    stores: _stores,
    skus,
    platform,
    brand_id,
    ...same
  } = detail;
  return {
    ...same,
    ...(brand_id !== null ? { brand_id } : {}),
    platform: platform as ParsedListingBody['platform'],
    store_ids: storeIds,
    skus: skus.map((sku) => ({
      seller_sku: sku.seller_sku,
      price: sku.price,
      stock: sku.stock,
      tier_index: sku.tier_index,
      master_code_id: sku.master_code?.id ?? null,
      promo: sku.promo,
    })),
    confirm_unlink_master_codes: false,
    skip_sync: false,
    confirm_listed_master_codes: true,
  };
}
