import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  COUNTRY_CODES,
  countries,
  currencies,
  einvoiceClassifications,
  einvoiceCountries,
  MSIC_NOT_APPLICABLE,
  malaysianState,
  malaysianStates,
  msicCode,
  msicCodes,
  PLATFORM_CODES,
  paymentModes,
  platforms,
  SUPPORTED_COUNTRY_CODES,
  searchMsic,
  taxTypes,
  units,
} from '@domain/lookups';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const dataFile = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(root, 'domain', 'lookups', 'data', name), 'utf8'));

describe('the MyInvois lookup tables', () => {
  it('serves each table exactly as the embedded file holds it', () => {
    expect(malaysianStates()).toEqual(dataFile('states.json'));
    expect(msicCodes()).toEqual(dataFile('msic.json'));
    expect(einvoiceClassifications()).toEqual(dataFile('classification.json'));
    expect(taxTypes()).toEqual(dataFile('taxes.json'));
    expect(paymentModes()).toEqual(dataFile('payment_means.json'));
    expect(einvoiceCountries()).toEqual(dataFile('countries.json'));
    expect(currencies()).toEqual(dataFile('currencies.json'));
  });

  it('leaves out only the units row that names no unit', () => {
    const file = dataFile('units.json') as { code: string }[];
    const blank = file.filter((u) => u.code.trim() === '');
    expect(blank).toHaveLength(1);
    expect(units()).toEqual(file.filter((u) => u.code.trim() !== ''));
    expect(units().find((u) => u.code === 'C62')).toMatchObject({ name: 'one' });
  });

  it('keeps the attribution beside the data', () => {
    const dir = path.join(root, 'domain', 'lookups', 'data');
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toContain('MIT License');
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('myinvois-python');
  });

  it('has the 17 Malaysian states paired with codes in the spec’s list order', () => {
    const states = malaysianStates();
    expect(states.map((s) => s.code)).toEqual(
      Array.from({ length: 17 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
    const expected = [
      'Johor',
      'Kedah',
      'Kelantan',
      'Melaka',
      'Negeri Sembilan',
      'Pahang',
      'Pulau Pinang',
      'Perak',
      'Perlis',
      'Selangor',
      'Terengganu',
      'Sabah',
      'Sarawak',
      'Kuala Lumpur',
      'Labuan',
      'Putrajaya',
      'Not Applicable',
    ];
    // The official table names the federal territories in full ("Wilayah Persekutuan Kuala Lumpur").
    states.forEach((state, i) => {
      expect(state.name.endsWith(expected[i]!), `${state.code} ${state.name}`).toBe(true);
    });
    expect(malaysianState('01')?.name).toBe('Johor');
    expect(malaysianState('14')?.name).toMatch(/Kuala Lumpur$/);
    expect(malaysianState('17')?.name).toBe('Not Applicable');
    expect(malaysianState('18')).toBeUndefined();
  });

  it('has the 45 e-invoice classifications 001 to 045', () => {
    expect(einvoiceClassifications().map((c) => c.code)).toEqual(
      Array.from({ length: 45 }, (_, i) => String(i + 1).padStart(3, '0')),
    );
    expect(einvoiceClassifications().every((c) => c.description.length > 0)).toBe(true);
  });

  it('has MSIC 00000 for "not applicable" and five-digit codes with a section letter', () => {
    expect(MSIC_NOT_APPLICABLE).toBe('00000');
    expect(msicCode('00000')).toEqual({ code: '00000', description: 'NOT APPLICABLE', category_ref: '' });
    expect(msicCode('47411')?.description).toMatch(/computer/i);
    expect(msicCodes().length).toBeGreaterThan(1000);
    for (const row of msicCodes().filter((m) => m.code !== '00000')) {
      expect(row.code).toMatch(/^\d{5}$/);
      expect(row.category_ref).toMatch(/^[A-U]$/);
    }
  });

  it('has the tax types and payment modes of the e-invoice', () => {
    expect(taxTypes().map((t) => t.code)).toEqual(['01', '02', '03', '04', '05', '06']);
    expect(paymentModes().map((p) => p.code)).toEqual(['01', '02', '03', '04', '05', '06', '07', '08']);
    expect(paymentModes()[0]).toEqual({ code: '01', name: 'Cash' });
  });

  it('is read-only', () => {
    expect(Object.isFrozen(malaysianStates())).toBe(true);
    expect(Object.isFrozen(malaysianStates()[0])).toBe(true);
  });
});

describe('MSIC search', () => {
  it('finds codes by prefix and descriptions by any part, ignoring case', () => {
    const byCode = searchMsic({ search: '4741', startRow: 0, endRow: 100 });
    expect(byCode.rows.map((r) => r.code)).toContain('47411');
    expect(byCode.rows.every((r) => r.code.startsWith('4741') || r.description.includes('4741'))).toBe(true);

    const byWords = searchMsic({ search: 'RETAIL SALE OF COMPUTERS', startRow: 0, endRow: 100 });
    expect(byWords.rows.map((r) => r.code)).toContain('47411');
    expect(byWords.lastRow).toBe(byWords.rows.length);

    expect(searchMsic({ search: 'no such industry anywhere', startRow: 0, endRow: 100 })).toEqual({
      rows: [],
      lastRow: 0,
    });
  });

  it('pages the whole table in order with the total as lastRow', () => {
    const all = msicCodes();
    const first = searchMsic({ startRow: 0, endRow: 100 });
    const second = searchMsic({ search: '  ', startRow: 100, endRow: 200 });
    expect(first.lastRow).toBe(all.length);
    expect(first.rows).toEqual(all.slice(0, 100));
    expect(second.rows).toEqual(all.slice(100, 200));
    const tail = searchMsic({ startRow: all.length - 5, endRow: all.length + 50 });
    expect(tail.rows).toHaveLength(5);
  });
});

describe('the spec’s countries and platforms', () => {
  it('lists MY, TH, TW, SG, PH, ID, CN, VN, IN as supported and BN, US as lookups only', () => {
    expect([...SUPPORTED_COUNTRY_CODES]).toEqual(['MY', 'TH', 'TW', 'SG', 'PH', 'ID', 'CN', 'VN', 'IN']);
    expect([...COUNTRY_CODES].sort()).toEqual(
      ['MY', 'TH', 'TW', 'SG', 'PH', 'ID', 'CN', 'VN', 'IN', 'US', 'BN'].sort(),
    );
    const byCode = new Map(countries().map((c) => [c.code, c]));
    expect(byCode.get('MY')).toEqual({
      code: 'MY',
      name: 'Malaysia',
      alpha3: 'MYS',
      currency: 'MYR',
      supported: true,
    });
    expect(byCode.get('BN')?.supported).toBe(false);
    expect(byCode.get('US')?.supported).toBe(false);
    const alpha3 = new Set(einvoiceCountries().map((c) => c.code));
    const currencyCodes = new Set(currencies().map((c) => c.code));
    for (const c of countries()) {
      expect(alpha3.has(c.alpha3), c.code).toBe(true);
      expect(currencyCodes.has(c.currency), c.code).toBe(true);
    }
  });

  it('lists the 18 platforms in the spec’s order (magento and zalora included), each with a logo the console serves', () => {
    expect(platforms().map((p) => p.code)).toEqual([
      'shopee',
      'lazada',
      'tmall',
      'taobao',
      '1688',
      'easystore',
      'woocommerce',
      'shopify',
      'magento',
      'smartpos',
      'opencart',
      'shoplineoa',
      'shopline',
      'o2o',
      'amazon',
      'senheng',
      'tiktokshop',
      'zalora',
    ]);
    expect(PLATFORM_CODES).toHaveLength(18);
    for (const p of platforms()) {
      expect(p.logo).toBe(`/platforms/${p.code}.svg`);
      const file = path.join(root, 'web', 'public', p.logo);
      expect(existsSync(file), file).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain(`<title>${p.name}</title>`);
    }
    expect(platforms().find((p) => p.code === 'tiktokshop')?.name).toBe('TikTok Shop');
  });
});
