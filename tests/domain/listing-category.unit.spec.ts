import { ListingCreated } from '@domain/listings/listing';
import { type CategoryRules, categoryProblems, type ListingContent } from '@domain/listings/rules';
import { translate } from '@infra/i18n';
import { describe, expect, it } from 'vitest';

/**
 * A listing against its store's category (issue 15): a last-level category, every mandatory attribute, a brand of
 * the list where the category needs one; and a listing saved before attributes existed still reads.
 */

const content: ListingContent = {
  platform: 'shopee',
  storeIds: ['s1'],
  productName: 'Keropok lekor',
  brand: '',
  model: '',
  categoryId: '100631',
  description: '',
  condition: 'new',
  packageLength: 0,
  packageWidth: 0,
  packageHeight: 0,
  packageWeight: 0.2,
  logistics: ['20011'],
  images: [{ url: 'https://img.test/k.jpg' }],
  variantGallery: [],
  gtin: '00',
  tiers: [],
  skus: [{ sellerSku: 'K-1', price: '9.90', stock: 1, tierIndex: [], masterCode: null, promo: null }],
};

const snacks: CategoryRules = {
  storeName: 'Kuih Shop',
  leaf: true,
  mandatory: [
    { attributeId: '100037', name: 'Country of Origin' },
    { attributeId: '100095', name: 'Shelf Life' },
  ],
  brandMandatory: false,
};

const problems = (listing: ListingContent, rules: CategoryRules) =>
  categoryProblems(listing, rules).map(({ field, error }) => ({
    field,
    code: error.refusal.code,
    msg: translate('en-us', error.refusal.key, error.params),
  }));

describe('a listing against its category', () => {
  it('names each mandatory attribute without a value, by its field, code 790', () => {
    const one = { attributeId: '100037', values: [{ valueId: '7001', name: 'Malaysia', unit: '' }] };
    expect(problems({ ...content, attributes: [one] }, snacks)).toEqual([
      { field: 'attributes/100095', code: 790, msg: 'Enter Shelf Life: the category requires it.' },
    ]);
    const own = { attributeId: '100095', values: [{ valueId: '', name: '  ', unit: '' }] };
    expect(problems({ ...content, attributes: [one, own] }, snacks)).toHaveLength(1);
    const typed = { attributeId: '100095', values: [{ valueId: '', name: '9 Months', unit: '' }] };
    expect(problems({ ...content, attributes: [one, typed] }, snacks)).toEqual([]);
  });

  it('refuses a category that is not a leaf, and No Brand where the category needs a brand', () => {
    expect(problems(content, { ...snacks, leaf: false })).toEqual([
      {
        field: 'category_id',
        code: 790,
        msg: 'Choose a last-level category from the category list of Kuih Shop.',
      },
    ]);
    const phones = { ...snacks, mandatory: [], brandMandatory: true };
    expect(problems({ ...content, brandId: '0' }, phones).map((p) => p.field)).toEqual(['brand']);
    expect(problems({ ...content, brandId: '1100004' }, phones)).toEqual([]);
  });

  it('reads a listing event saved before attributes and brand ids', () => {
    const { brandId: _brand, attributes: _attributes, ...old } = { ...content, brandId: '1', attributes: [] };
    expect(ListingCreated.safeParse({ listingId: 'l1', content: old }).success).toBe(true);
  });
});
