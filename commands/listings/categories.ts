import type { CategoryChoice, CategoryOption } from '@api/contracts/listings';
import type { CategoryRules, ListingContent } from '@domain/listings/rules';
import { categoryProblems, refuseListing } from '@domain/listings/rules';
import { isUuid } from '@domain/platform/ids';
import { refusedTogether } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import {
  type ChannelAttribute,
  type ChannelBrands,
  type ChannelCategory,
  ChannelError,
  channelFor,
} from '@integrations/channel';
import { findStore, type Store } from '@integrations/stores';
import type { Kysely } from 'kysely';

/**
 * A store's category tree, a leaf's attributes and brands, as the listing editor picks them and the save checks
 * them (issue 15): read from the store's channel and kept here for an hour.
 *
 * Kept in memory, not in a table: it is the marketplace's reference data, not the account's (nothing to audit, no
 * tenant's rows to guard), it changes a few times a year, and losing it on a restart costs one call per store. A
 * table would also hold a copy each tenant could see go stale with no way to refresh it. Each process keeps its own
 * copy (the API's and the worker's), bounded, and forgets a failed read at once so the next asks again.
 */

const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 2_000;

interface LeafChoice {
  category: ChannelCategory;
  attributes: ChannelAttribute[];
  brands: ChannelBrands;
}

const optionOf = (category: ChannelCategory): CategoryOption => ({
  id: category.categoryId,
  parent_id: category.parentId,
  name: category.name,
  leaf: category.leaf,
});

class ChannelCatalogue {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  /** The value under `key`, read by `load` when absent or older than the TTL; a failed read is not kept. */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const found = this.entries.get(key);
    if (found && Date.now() - found.at < TTL_MS) return found.value as Promise<T>;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { at: Date.now(), value });
    // The oldest entry goes first (a Map keeps insertion order).
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

const channelCatalogue = new ChannelCatalogue();

/** The account's store by an id from a request; another account's is as missing as an unknown one. */
async function storeOf(db: Kysely<Database>, tenantId: string, storeId: string): Promise<Store> {
  const id = storeId.toLowerCase();
  const store = isUuid(id) ? await findStore(db, tenantId, id) : undefined;
  if (!store) throw refuseListing('STORE_NOT_FOUND');
  return store;
}

const categoriesOf = (db: Kysely<Database>, store: Store) =>
  channelCatalogue.get(`${store.tenantId}:${store.id}:categories`, () =>
    channelFor(db, store).getCategories(),
  );

/** A channel that cannot answer now is the seller's to retry; any other failure is a bug, thrown as it is. */
async function readChannel<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ChannelError) throw refuseListing('CATEGORIES_UNAVAILABLE');
    throw error;
  }
}

/** The store's category tree for the editor's picker. */
export async function storeCategories(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<CategoryOption[]> {
  const store = await storeOf(db, tenantId, storeId);
  return (await readChannel(() => categoriesOf(db, store))).map(optionOf);
}

/** A leaf category of the store with its attributes and brands; a category that is not a leaf is refused. */
export async function categoryChoice(
  db: Kysely<Database>,
  tenantId: string,
  input: { storeId: string; categoryId: string },
): Promise<CategoryChoice> {
  const store = await storeOf(db, tenantId, input.storeId);
  return readChannel(async () => {
    const category = (await categoriesOf(db, store)).find(
      (candidate) => candidate.categoryId === input.categoryId,
    );
    if (!category?.leaf) throw refuseListing('CATEGORY_NOT_LEAF', { store: store.name });
    const { attributes, brands } = await leafChoice(db, store, category);
    return {
      category: optionOf(category),
      attributes: attributes.map((attribute) => ({
        id: attribute.attributeId,
        name: attribute.name,
        mandatory: attribute.mandatory,
        input: attribute.input,
        values: attribute.values.map((value) => ({ id: value.valueId, name: value.name })),
        units: attribute.units,
        max_values: attribute.maxValues ?? null,
      })),
      brand_mandatory: brands.mandatory,
      brands: brands.brands.map((brand) => ({ id: brand.brandId, name: brand.name })),
    };
  });
}

const leafChoice = (db: Kysely<Database>, store: Store, category: ChannelCategory) =>
  channelCatalogue.get<LeafChoice>(`${store.tenantId}:${store.id}:leaf:${category.categoryId}`, async () => {
    const channel = channelFor(db, store);
    const [attributes, brands] = await Promise.all([
      channel.getAttributes(category.categoryId),
      channel.getBrands(category.categoryId),
    ]);
    return { category, attributes, brands };
  });

/**
 * The listing against the category tree of each of its stores (a save's check): a leaf, every mandatory attribute,
 * a brand where needed; every problem at once. A store whose channel cannot be read now (not authorised, down) is
 * left out: the draft is still saved, and the marketplace itself refuses an incomplete item at publish.
 */
export async function checkListingCategory(
  db: Kysely<Database>,
  tenantId: string,
  content: ListingContent,
): Promise<void> {
  if (!content.categoryId) return;
  for (const storeId of content.storeIds) {
    const store = await findStore(db, tenantId, storeId);
    if (!store) continue;
    const rules = await rulesOf(db, store, content.categoryId).catch((error: unknown) => {
      if (error instanceof ChannelError) return undefined;
      throw error;
    });
    const refused = rules && refusedTogether(categoryProblems(content, rules));
    if (refused) throw refused;
  }
}

async function rulesOf(db: Kysely<Database>, store: Store, categoryId: string): Promise<CategoryRules> {
  const category = (await categoriesOf(db, store)).find((candidate) => candidate.categoryId === categoryId);
  const base = { storeName: store.name, mandatory: [], brandMandatory: false };
  if (!category?.leaf) return { ...base, leaf: false };
  const { attributes, brands } = await leafChoice(db, store, category);
  return {
    ...base,
    leaf: true,
    mandatory: attributes
      .filter((attribute) => attribute.mandatory)
      .map((attribute) => ({ attributeId: attribute.attributeId, name: attribute.name })),
    brandMandatory: brands.mandatory,
  };
}
