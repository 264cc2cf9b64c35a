/**
 * Product listings (issue 15; spec §2 "Product listings and promotions", §7 listing calls): the list with the status
 * filter of §4, one listing, its save (a new groupId makes a draft), publish, sync and unlist on the stores (one
 * workflow per store), delete, the SKU existence check, the listing's uploaded images, the editor's pickers and the
 * bulk edit (the bulk upload and copy: ./upload.ts, a plugin of its own for its file bodies). Read with listings-index; changed with listings-manage; unlisting from a marketplace needs
 * marketplace_control (spec §6 "Listings: view, manage, marketplace control").
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  BulkEditAnswer,
  BulkEditBody,
  CategoryChoice,
  CategoryChoiceQuery,
  CategoryOption,
  CategoryQuery,
  ExistSkuAnswer,
  ExistSkuBody,
  GroupParams,
  ImportListingBody,
  ListingBody,
  ListingDetail,
  ListingListQuery,
  ListingListRow,
  MasterCodeOption,
  PublicationBody,
  StoreOption,
} from '@api/contracts/listings';
import { notFound } from '@api/errors';
import { acceptImageBodies, imageAnswers, sendImage, UploadedImage } from '@api/images';
import { conflicts, router } from '@api/route';
import { bulkEditListings } from '@commands/listings/bulk-edit';
import { categoryChoice, storeCategories } from '@commands/listings/categories';
import { deleteListing } from '@commands/listings/delete-listing';
import { listingDetail } from '@commands/listings/details';
import { LISTING_IMAGE, listingImage, uploadListingImage } from '@commands/listings/images';
import { importListing } from '@commands/listings/import-listing';
import { runPublication } from '@commands/listings/publish';
import { saveListing } from '@commands/listings/save-listing';
import type { ListingDeps } from '@commands/listings/support';
import type { PublicationAction } from '@domain/listings/listing';
import { existingSkus, listingPage, listingStores, masterCodeOptions } from '@projections/listings.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const view = { permission: 'listings-index' } as const;
const manage = { permission: 'listings-manage' } as const;
const control = { permission: 'marketplace_control' } as const;

export const listingRoutes: FastifyPluginAsyncZod<ListingDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags: ['listings'], access: view });
  const bodyLimit = acceptImageBodies(app, LISTING_IMAGE.maxBytes);

  route.get(
    '/api/listings',
    {
      summary:
        'Listings, ag-grid Infinite Row Model, with the status filter (all, draft, active, inactive, deleted, banned, new, sold out, used, pending, error)',
      query: ListingListQuery,
      answer: GridPage(ListingListRow),
    },
    async (request) => ok(request, await listingPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/listings/stores',
    { summary: 'The stores a listing may be published to', answer: z.array(StoreOption) },
    async (request) => ok(request, await listingStores(db, seller(request).tenantId)),
  );

  route.get(
    '/api/listings/categories',
    {
      summary: "The store's category tree from its marketplace (only a leaf takes a listing), kept an hour",
      query: CategoryQuery,
      answer: z.array(CategoryOption),
    },
    async (request) =>
      ok(request, await storeCategories(db, seller(request).tenantId, request.query.store_id)),
  );

  route.get(
    '/api/listings/category',
    {
      summary: 'A leaf category of the store with its attributes (mandatory ones marked) and brands',
      query: CategoryChoiceQuery,
      answer: CategoryChoice,
    },
    async (request) =>
      ok(
        request,
        await categoryChoice(db, seller(request).tenantId, {
          storeId: request.query.store_id,
          categoryId: request.query.category_id,
        }),
      ),
  );

  route.get(
    '/api/listings/master-codes',
    {
      summary:
        'Master codes for a SKU row, each saying whether it is already listed (adding it asks to confirm)',
      query: z.strictObject({ search: z.string().max(100).default('') }),
      answer: z.array(MasterCodeOption),
    },
    async (request) =>
      ok(request, await masterCodeOptions(db, seller(request).tenantId, request.query.search)),
  );

  route.get(
    '/api/listing/:groupId',
    {
      summary: 'One listing, with each store it is published to',
      params: GroupParams,
      answer: ListingDetail,
    },
    async (request) =>
      ok(request, await listingDetail(deps, seller(request).tenantId, request.params.groupId)),
  );

  route.post(
    '/api/listing/:groupId',
    {
      summary:
        'Save a listing (a new groupId makes a draft): stores (1 to 20), name, category, images, logistics, tiers (Shopee: at most 50 combinations) and SKU rows',
      access: manage,
      params: GroupParams,
      body: ListingBody,
      answer: ListingDetail,
      errors: { 409: conflicts[409] },
    },
    async (request) =>
      ok(
        request,
        ...(await saveListing(deps, seller(request), {
          groupId: request.params.groupId,
          body: request.body,
        })),
      ),
  );

  route.delete(
    '/api/listing/:groupId',
    {
      summary: 'Delete a listing (Kedai keeps it under the "deleted" filter; channel items are not touched)',
      access: manage,
      params: GroupParams,
      answer: ListingDetail,
      errors: { 409: conflicts[409] },
    },
    async (request) => ok(request, ...(await deleteListing(deps, seller(request), request.params.groupId))),
  );

  const publication =
    (action: PublicationAction) =>
    async (
      request: FastifyRequest<{ Params: { groupId: string }; Body: { store_ids?: string[] | undefined } }>,
    ) =>
      ok(
        request,
        ...(await runPublication(deps, seller(request), {
          groupId: request.params.groupId,
          action,
          storeIds: request.body.store_ids,
        })),
      );
  const publicationSpec = {
    params: GroupParams,
    body: PublicationBody,
    answer: ListingDetail,
    errors: conflicts,
  } as const;

  route.post(
    '/api/listing/publish/:groupId',
    {
      summary:
        'Publish a listing to its stores (or those named), one workflow per store; a store with the item is synced',
      access: manage,
      ...publicationSpec,
    },
    publication('publish'),
  );
  route.post(
    '/api/listing/sync/:groupId',
    {
      summary: "Write the listing's changes to the stores it is published to",
      access: manage,
      ...publicationSpec,
    },
    publication('sync'),
  );
  route.post(
    '/api/listing/unlist/:groupId',
    {
      summary: 'Unlist the listing from its stores (marketplace control)',
      access: control,
      ...publicationSpec,
    },
    publication('unlist'),
  );

  route.post(
    '/api/listing/check/exist_sku',
    {
      summary:
        'Which SKUs a store already sells, which another listing uses, and whether the request repeats one',
      access: manage,
      body: ExistSkuBody,
      answer: ExistSkuAnswer,
    },
    async (request) =>
      ok(
        request,
        await existingSkus(db, seller(request).tenantId, {
          skus: request.body.skus,
          listingId: request.body.group_id?.toLowerCase(),
          storeId: request.body.api_user_id?.toLowerCase(),
        }),
      ),
  );

  route.post(
    '/api/listings/import',
    {
      summary:
        'Import to listings: a draft listing from an item a store sells (read from the channel, SKUs linked as downloaded)',
      access: manage,
      body: ImportListingBody,
      answer: ListingDetail,
    },
    async (request) =>
      ok(
        request,
        ...(await importListing(deps, seller(request), {
          storeId: request.body.store_id,
          itemId: request.body.item_id,
          logistics: request.body.logistics,
        })),
      ),
  );

  route.post(
    '/api/listings/bulk-edit',
    {
      summary:
        "Several listings' names, prices and stock at once: one save per listing, each refusal answered by listing",
      access: manage,
      body: BulkEditBody,
      answer: BulkEditAnswer,
    },
    async (request) =>
      ok(
        request,
        ...(await bulkEditListings(deps, { ...seller(request), language: request.language }, request.body)),
      ),
  );

  route.post(
    '/api/listing/images',
    {
      summary: "Upload a listing's image: the PNG, JPEG, WebP or GIF itself as the body (at most 2 MB)",
      access: manage,
      bodyLimit,
      answer: UploadedImage,
      errors: { 413: ErrorAnswer, 415: ErrorAnswer },
    },
    async (request) =>
      ok(request, await uploadListingImage({ db }, seller(request), request.body), 'listing.image_uploaded'),
  );

  route.get(
    '/api/listing/images/:id',
    { summary: "A listing's uploaded image", params: IdParams, raw: imageAnswers },
    async (request, reply) => {
      const image = await listingImage(db, seller(request).tenantId, request.params.id);
      if (!image) throw notFound();
      return sendImage(reply, image);
    },
  );
};
