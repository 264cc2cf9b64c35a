import { ATTRIBUTE_INPUT_TYPES, type ShopeeAttribute, type ShopeeCategory } from '../schemas';

/**
 * The sandbox's category tree, attributes and brands: a small piece of a Malaysian marketplace's, enough for the
 * listing editor's picker and for add_item's checks (a leaf category; every mandatory attribute; a brand where the
 * category needs one). Every shop sees the same tree. Ids stay clear of the generator's items: 100017 (Tops) is the
 * leaf its items and the older tests use, with nothing mandatory, so a listing made before categories still publishes.
 */

interface Leaf {
  id: number;
  name: string;
  attributes: ShopeeAttribute[];
  /** The category's own brands, beside "No Brand" (id 0) which every category offers. */
  brands: string[];
  brandMandatory: boolean;
}

interface Branch {
  id: number;
  name: string;
  children: (Branch | Leaf)[];
}

const { singleDropDown, singleComboBox, freeText, multiDropDown } = ATTRIBUTE_INPUT_TYPES;

let nextValueId = 7_000;
/** An attribute of the sandbox's: its values numbered once, in order of appearance. */
function attribute(
  id: number,
  name: string,
  options: {
    mandatory: boolean;
    inputType: number;
    values?: string[];
    units?: string[];
    maxValues?: number;
  },
): ShopeeAttribute {
  return {
    attribute_id: id,
    mandatory: options.mandatory,
    name,
    attribute_value_list: (options.values ?? []).map((value) => ({
      value_id: nextValueId++,
      name: value,
      child_attribute_list: [],
      multi_lang: [],
    })),
    attribute_info: {
      input_type: options.inputType,
      input_validation_type: options.units ? 3 : 2,
      format_type: options.units ? 2 : 1,
      attribute_unit_list: options.units ?? [],
      ...(options.maxValues ? { max_value_count: options.maxValues } : {}),
    },
    multi_lang: [],
  };
}

const material = (mandatory: boolean) =>
  attribute(100_134, 'Material', {
    mandatory,
    inputType: singleComboBox,
    values: ['Cotton', 'Rayon', 'Silk', 'Polyester', 'Linen'],
  });
const countryOfOrigin = (mandatory: boolean) =>
  attribute(100_037, 'Country of Origin', {
    mandatory,
    inputType: singleDropDown,
    values: ['Malaysia', 'Indonesia', 'Thailand', 'China'],
  });

const TREE: Branch[] = [
  {
    id: 100_001,
    name: "Women's Clothing",
    children: [
      {
        id: 100_017,
        name: 'Tops',
        attributes: [material(false), countryOfOrigin(false)],
        brands: ['Padini', 'Kedai'],
        brandMandatory: false,
      },
      {
        id: 100_018,
        name: 'Dresses',
        attributes: [
          material(true),
          attribute(100_140, 'Pattern', {
            mandatory: false,
            inputType: singleDropDown,
            values: ['Batik', 'Floral', 'Plain', 'Songket'],
          }),
        ],
        brands: ['Padini', 'Kedai'],
        brandMandatory: false,
      },
      {
        id: 100_019,
        name: 'Traditional Wear',
        children: [
          {
            id: 100_020,
            name: 'Baju Kurung',
            attributes: [
              material(true),
              attribute(100_141, 'Occasion', {
                mandatory: true,
                inputType: multiDropDown,
                values: ['Hari Raya', 'Wedding', 'Office', 'Daily'],
                maxValues: 3,
              }),
            ],
            brands: ['Jakel', 'Kedai'],
            brandMandatory: false,
          },
        ],
      },
    ],
  },
  {
    id: 100_630,
    name: 'Food & Beverages',
    children: [
      {
        id: 100_631,
        name: 'Snacks',
        attributes: [
          countryOfOrigin(true),
          attribute(100_095, 'Shelf Life', {
            mandatory: true,
            inputType: singleDropDown,
            values: ['1 Month', '3 Months', '6 Months', '12 Months'],
          }),
          attribute(100_999, 'Weight', { mandatory: false, inputType: freeText, units: ['g', 'kg'] }),
        ],
        brands: ['Mamee', "Julie's"],
        brandMandatory: false,
      },
    ],
  },
  {
    id: 100_534,
    name: 'Mobile & Gadgets',
    children: [
      {
        id: 100_535,
        name: 'Mobile Phones',
        attributes: [
          attribute(100_465, 'Storage Capacity', {
            mandatory: true,
            inputType: singleDropDown,
            values: ['64GB', '128GB', '256GB'],
          }),
          attribute(100_466, 'Warranty Type', {
            mandatory: false,
            inputType: singleDropDown,
            values: ['Local Manufacturer Warranty', 'International Warranty', 'No Warranty'],
          }),
        ],
        brands: ['Samsung', 'Xiaomi', 'Apple'],
        brandMandatory: true,
      },
    ],
  },
];

export const NO_BRAND = { brand_id: 0, original_brand_name: 'No Brand' } as const;

const isLeaf = (node: Branch | Leaf): node is Leaf => !('children' in node);

function flatten(nodes: (Branch | Leaf)[], parent: number): { category: ShopeeCategory; leaf?: Leaf }[] {
  return nodes.flatMap((node) => [
    {
      category: {
        category_id: node.id,
        parent_category_id: parent,
        original_category_name: node.name,
        display_category_name: node.name,
        has_children: !isLeaf(node),
      },
      ...(isLeaf(node) ? { leaf: node } : {}),
    },
    ...(isLeaf(node) ? [] : flatten(node.children, node.id)),
  ]);
}

const FLAT = flatten(TREE, 0);
let brandId = 1_100_000;
/** Brand ids by category: the same name in two categories is the same brand, as on Shopee. */
const BRAND_IDS = new Map<string, number>();
for (const { leaf } of FLAT)
  for (const name of leaf?.brands ?? []) if (!BRAND_IDS.has(name)) BRAND_IDS.set(name, brandId++);

export const sandboxCategories = (): ShopeeCategory[] => FLAT.map((entry) => entry.category);

/** A category by id: undefined when the tree has none. */
export const sandboxCategory = (categoryId: number) =>
  FLAT.find((entry) => entry.category.category_id === categoryId);

/** A leaf's brands as get_brand_list lists them, "No Brand" first. */
export function sandboxBrands(leaf: Leaf) {
  return [
    NO_BRAND,
    ...leaf.brands.map((name) => ({ brand_id: BRAND_IDS.get(name)!, original_brand_name: name })),
  ].map((brand) => ({ ...brand, display_brand_name: brand.original_brand_name }));
}
