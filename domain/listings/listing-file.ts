import { LISTING_LIMITS } from './rules';

/**
 * The listings bulk upload file (spec §5 "Bulk upload"; issue 15): one row per SKU, in a fixed column order, the
 * first row a header that is ignored. The handle is required and groups the variants of one product: the rows sharing
 * a handle make one listing, whose own columns (name, stores, category…) are stated on its first row — a later row
 * may leave them empty or repeat them, never change them — and whose variant tiers are named on its first row, each
 * row giving its options. Pure: the command (commands/listings/upload-listings.ts) reads the file and saves each
 * listing through the editor's use case, where the listing's own rules (domain/listings/rules.ts) are checked.
 */

export const LISTING_FILE_COLUMNS = [
  'handle',
  'seller_sku',
  'price',
  'stock',
  'product_name',
  'stores',
  'category_id',
  'logistics',
  'images',
  'variant_1_name',
  'variant_1_option',
  'variant_2_name',
  'variant_2_option',
  'master_code',
  'brand',
  'model',
  'description',
  'condition',
  'gtin',
  'package_weight',
  'package_length',
  'package_width',
  'package_height',
] as const;
export type ListingFileColumn = (typeof LISTING_FILE_COLUMNS)[number];

/** The columns every row fills: its handle and its SKU. */
export const REQUIRED_LISTING_COLUMNS = ['handle', 'seller_sku', 'price', 'stock'] as const;

/** The columns of one SKU row; the others are the listing's own, stated on its first row. */
const ROW_COLUMNS = [
  'handle',
  'seller_sku',
  'price',
  'stock',
  'variant_1_name',
  'variant_1_option',
  'variant_2_name',
  'variant_2_option',
  'master_code',
] as const satisfies readonly ListingFileColumn[];
export type ListingOwnColumn = Exclude<ListingFileColumn, (typeof ROW_COLUMNS)[number]>;
export const LISTING_OWN_COLUMNS = LISTING_FILE_COLUMNS.filter(
  (column): column is ListingOwnColumn => !(ROW_COLUMNS as readonly string[]).includes(column),
);

/** Several values in one cell (stores, logistics, images) are separated by a vertical bar. */
export const LIST_SEPARATOR = '|';
export const listOf = (cell: string) =>
  cell
    .split(LIST_SEPARATOR)
    .map((value) => value.trim())
    .filter((value) => value !== '');

const TIER_COLUMNS = [
  { name: 'variant_1_name', option: 'variant_1_option' },
  { name: 'variant_2_name', option: 'variant_2_option' },
] as const satisfies readonly { name: ListingFileColumn; option: ListingFileColumn }[];

export type ListingFileProblem = 'required' | 'differs' | 'text_invalid';

export interface ListingFileRowProblem {
  row: number;
  column: ListingFileColumn;
  problem: ListingFileProblem;
}

export interface FileSku {
  /** The file's line (the header is line 1). */
  row: number;
  sellerSku: string;
  price: string;
  stock: string;
  /** One index per tier into its options. */
  tierIndex: number[];
  masterCode: string;
}

export interface FileListing {
  handle: string;
  /** Its first row, where its own columns are stated. */
  row: number;
  own: Record<ListingOwnColumn, string>;
  tiers: { name: string; options: string[] }[];
  skus: FileSku[];
}

/**
 * The file's rows (after the header) grouped by handle into listings, in the order their handles first appear, and
 * the problems of the rows. A listing with any problem is left out (nothing of it is saved); its problems name it.
 */
export function groupListingRows(rows: readonly { row: number; cells: readonly string[] }[]): {
  listings: FileListing[];
  problems: ListingFileRowProblem[];
  /** The rows of each listing left out, by handle. */
  refused: Map<string, number[]>;
} {
  const problems: ListingFileRowProblem[] = [];
  const groups = new Map<string, { row: number; cell: (column: ListingFileColumn) => string }[]>();
  for (const { row, cells } of rows) {
    const cell = (column: ListingFileColumn) => cells[LISTING_FILE_COLUMNS.indexOf(column)] ?? '';
    if (cells.some((value) => value.includes('\u0000'))) {
      problems.push({ row, column: 'handle', problem: 'text_invalid' });
      continue;
    }
    const handle = cell('handle');
    if (!handle) {
      problems.push({ row, column: 'handle', problem: 'required' });
      continue;
    }
    // Handles are told apart as a person reads them: "Batik-Shirt" and "batik-shirt" are one product.
    const key = handle.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), { row, cell }]);
  }
  const listings: FileListing[] = [];
  const refused = new Map<string, number[]>();
  for (const group of groups.values()) {
    const found: ListingFileRowProblem[] = [];
    const listing = listingOf(group, found);
    if (found.length > 0) {
      problems.push(...found);
      refused.set(
        listing.handle,
        group.map((line) => line.row),
      );
    } else listings.push(listing);
  }
  problems.sort((a, b) => a.row - b.row);
  return { listings, problems, refused };
}

function listingOf(
  group: readonly { row: number; cell: (column: ListingFileColumn) => string }[],
  found: ListingFileRowProblem[],
): FileListing {
  const first = group[0]!;
  // Stated once, on the first row: a later row repeats it or leaves it empty.
  const stated = (column: ListingFileColumn) => {
    for (const line of group.slice(1)) {
      const value = line.cell(column);
      if (value && value !== first.cell(column)) found.push({ row: line.row, column, problem: 'differs' });
    }
    return first.cell(column);
  };
  const own = Object.fromEntries(LISTING_OWN_COLUMNS.map((column) => [column, stated(column)])) as Record<
    ListingOwnColumn,
    string
  >;
  const names = TIER_COLUMNS.map((tier) => stated(tier.name));
  // The tiers named, in order: a second tier without a first is a first tier missing its name.
  const tierCount = names[1] ? 2 : names[0] ? 1 : 0;
  for (let index = 0; index < tierCount; index++)
    if (!names[index]) found.push({ row: first.row, column: TIER_COLUMNS[index]!.name, problem: 'required' });
  const tiers = names.slice(0, tierCount).map((name) => ({ name, options: [] as string[] }));
  const skus = group.map((line): FileSku => {
    for (const column of REQUIRED_LISTING_COLUMNS)
      if (!line.cell(column)) found.push({ row: line.row, column, problem: 'required' });
    const tierIndex = TIER_COLUMNS.flatMap((columns, index) => {
      const option = line.cell(columns.option);
      const tier = tiers[index];
      if (!tier) {
        if (option) found.push({ row: first.row, column: columns.name, problem: 'required' });
        return [];
      }
      if (!option) {
        found.push({ row: line.row, column: columns.option, problem: 'required' });
        return [];
      }
      // Options are told apart as the editor does (case kept: "M" and "m" are two sizes there too).
      let at = tier.options.indexOf(option);
      if (at < 0) at = tier.options.push(option) - 1;
      return [at];
    });
    return {
      row: line.row,
      sellerSku: line.cell('seller_sku'),
      price: line.cell('price'),
      stock: line.cell('stock'),
      tierIndex,
      masterCode: line.cell('master_code'),
    };
  });
  return { handle: first.cell('handle'), row: first.row, own, tiers, skus };
}

/**
 * The data rows a file may hold (the spec names a cap without its value): forty listings of Shopee's 50 combinations,
 * each saved through the editor's use case while the person waits.
 */
export const MAX_LISTING_FILE_ROWS = 40 * LISTING_LIMITS.combinations;
