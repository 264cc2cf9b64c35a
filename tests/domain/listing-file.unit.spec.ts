import { groupListingRows, LISTING_FILE_COLUMNS, listOf } from '@domain/listings/listing-file';
import { describe, expect, it } from 'vitest';

/**
 * The listings bulk upload file (spec §5 "Bulk upload"): rows sharing a handle make one listing, its own columns from
 * its first row, its tiers' options in the order the rows give them; a row without a handle, a later row changing a
 * listing's column, an option without a tier name are each named by row and column, and their listing left out.
 */

type Column = (typeof LISTING_FILE_COLUMNS)[number];
let line = 1;
const row = (cells: Partial<Record<Column, string>>) => ({
  row: ++line,
  cells: LISTING_FILE_COLUMNS.map((column) => cells[column] ?? ''),
});

describe('the listings upload file', () => {
  it('groups rows by handle (whatever the case, wherever they are) into listings with their tiers', () => {
    line = 1;
    const { listings, problems } = groupListingRows([
      row({
        handle: 'Shirt',
        seller_sku: 'S-RM',
        price: '10',
        stock: '1',
        product_name: 'Shirt',
        stores: 'A|B',
        variant_1_name: 'Colour',
        variant_2_name: 'Size',
        variant_1_option: 'Red',
        variant_2_option: 'M',
      }),
      row({ handle: 'cap', seller_sku: 'CAP', price: '5', stock: '2', product_name: 'Cap' }),
      row({
        handle: 'shirt',
        seller_sku: 'S-RL',
        price: '10',
        stock: '1',
        product_name: 'Shirt',
        variant_1_option: 'Red',
        variant_2_option: 'L',
      }),
      row({
        handle: 'SHIRT',
        seller_sku: 'S-BM',
        price: '10',
        stock: '1',
        variant_1_option: 'Blue',
        variant_2_option: 'M',
      }),
    ]);
    expect(problems).toEqual([]);
    expect(listings.map((listing) => [listing.handle, listing.row, listing.own.product_name])).toEqual([
      ['Shirt', 2, 'Shirt'],
      ['cap', 3, 'Cap'],
    ]);
    const [shirt, cap] = listings;
    expect(shirt!.tiers).toEqual([
      { name: 'Colour', options: ['Red', 'Blue'] },
      { name: 'Size', options: ['M', 'L'] },
    ]);
    expect(shirt!.skus.map((sku) => [sku.row, sku.sellerSku, sku.tierIndex])).toEqual([
      [2, 'S-RM', [0, 0]],
      [4, 'S-RL', [0, 1]],
      [5, 'S-BM', [1, 0]],
    ]);
    expect(listOf(shirt!.own.stores)).toEqual(['A', 'B']);
    expect(cap!.tiers).toEqual([]);
    expect(cap!.skus.map((sku) => sku.tierIndex)).toEqual([[]]);
  });

  it('names each bad row and leaves its listing out', () => {
    line = 1;
    const { listings, problems, refused } = groupListingRows([
      row({ seller_sku: 'ORPHAN', price: '1', stock: '1' }),
      row({ handle: 'good', seller_sku: 'G', price: '1', stock: '1' }),
      row({
        handle: 'renamed',
        seller_sku: 'R1',
        price: '1',
        stock: '1',
        product_name: 'One',
        variant_1_name: 'Size',
        variant_1_option: 'S',
      }),
      row({
        handle: 'renamed',
        seller_sku: 'R2',
        price: '1',
        stock: '1',
        product_name: 'Two',
        variant_1_option: 'M',
      }),
      row({ handle: 'no-tier', seller_sku: 'N1', price: '', stock: '1', variant_2_option: 'X' }),
      row({ handle: 'nul', seller_sku: 'A\u0000', price: '1', stock: '1' }),
    ]);
    expect(listings.map((listing) => listing.handle)).toEqual(['good']);
    expect(problems).toEqual([
      { row: 2, column: 'handle', problem: 'required' },
      { row: 5, column: 'product_name', problem: 'differs' },
      { row: 6, column: 'price', problem: 'required' },
      { row: 6, column: 'variant_2_name', problem: 'required' },
      { row: 7, column: 'handle', problem: 'text_invalid' },
    ]);
    expect([...refused]).toEqual([
      ['renamed', [4, 5]],
      ['no-tier', [6]],
    ]);
  });
});
