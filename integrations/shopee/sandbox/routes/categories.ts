import {
  type AddItemRequest,
  attributeTreeRequest,
  brandListRequest,
  categoryRequest,
  SHOPEE_PATHS,
} from '../../schemas';
import { NO_BRAND, sandboxBrands, sandboxCategories, sandboxCategory } from '../catalogue';
import { parse, queryOf, Refusal, type RouteTable } from './common';

/**
 * product/get_category, get_attribute_tree and get_brand_list over the sandbox's catalogue (catalogue.ts), and
 * the checks add_item and update_item make of an item's category, attributes and brand, with Shopee's codes and
 * messages: attributes and brands are asked of a leaf only.
 */

const invalidCategory = () => new Refusal(400, 'error_invalid_category', 'Invalid category ID');

/** The leaf of a category id, or Shopee's refusal. */
function leafOf(categoryId: number) {
  const leaf = sandboxCategory(categoryId)?.leaf;
  if (!leaf) throw invalidCategory();
  return leaf;
}

/**
 * What add_item (and update_item, for the fields it is given) refuses: a category that is not a leaf, a mandatory
 * attribute without a value, a value id the attribute does not list, a missing brand where the category needs one.
 */
export function checkItemCategory(
  request: Pick<Partial<AddItemRequest>, 'category_id' | 'attribute_list' | 'brand'>,
): void {
  if (request.category_id === undefined) return;
  const leaf = leafOf(request.category_id);
  const given = new Map((request.attribute_list ?? []).map((entry) => [entry.attribute_id, entry]));
  for (const [attributeId, entry] of given) {
    const known = leaf.attributes.find((candidate) => candidate.attribute_id === attributeId);
    if (!known) throw new Refusal(400, 'error_wrong_attrsnapshot', 'Invalid attribute.');
    const valueIds = new Set(known.attribute_value_list.map((value) => value.value_id));
    const bad = (entry.attribute_value_list ?? []).some((value) =>
      value.value_id === 0 ? !value.original_value_name : !valueIds.has(value.value_id),
    );
    if (bad) throw new Refusal(400, 'error_invalid_attribute_value', 'Invalid attribute value.');
  }
  const missing = leaf.attributes.some(
    (attribute) =>
      attribute.mandatory && (given.get(attribute.attribute_id)?.attribute_value_list ?? []).length === 0,
  );
  if (missing)
    throw new Refusal(400, 'error_less_required_attribute', 'Mandatory attribute information required');
  if (leaf.brandMandatory && (!request.brand || request.brand.brand_id === NO_BRAND.brand_id))
    throw new Refusal(400, 'error_less_required_brand', 'Brand information required');
}

export function categoryRoutes(): RouteTable {
  return [
    [
      SHOPEE_PATHS.getCategory,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url }) {
          parse(categoryRequest, queryOf(url));
          return { category_list: sandboxCategories() };
        },
      },
    ],
    [
      SHOPEE_PATHS.getAttributeTree,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url }) {
          const query = queryOf(url, [], ['category_id_list']);
          const request = parse(attributeTreeRequest, {
            ...query,
            category_id_list: (query.category_id_list as string[] | undefined)?.map(Number),
          });
          return {
            list: request.category_id_list.map((categoryId) => ({
              category_id: categoryId,
              attribute_tree: leafOf(categoryId).attributes,
            })),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.getBrandList,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url }) {
          const request = parse(
            brandListRequest,
            queryOf(url, ['offset', 'page_size', 'category_id', 'status']),
          );
          const leaf = leafOf(request.category_id);
          // The sandbox has no brand registrations: nothing is pending.
          const brands = request.status === 1 ? sandboxBrands(leaf) : [];
          const page = brands.slice(request.offset, request.offset + request.page_size);
          const nextOffset = request.offset + page.length;
          return {
            brand_list: page,
            has_next_page: nextOffset < brands.length,
            next_offset: nextOffset,
            is_mandatory: leaf.brandMandatory,
            input_type: 'DROP_DOWN',
          };
        },
      },
    ],
  ];
}
