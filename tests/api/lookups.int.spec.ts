import {
  countries,
  currencies,
  einvoiceClassifications,
  einvoiceCountries,
  malaysianStates,
  msicCodes,
  paymentModes,
  platforms,
  taxTypes,
  units,
} from '@domain/lookups';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('GET /api/lookup/*', () => {
  let api: TestApi;
  let seller: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (url: string, token?: string, language?: string) =>
    api.app.inject({ method: 'GET', url, headers: token ? bearer(token, language) : {} });

  it.each([
    ['states', malaysianStates],
    ['classifications', einvoiceClassifications],
    ['taxes', taxTypes],
    ['payment-modes', paymentModes],
    ['currencies', currencies],
    ['units', units],
    ['einvoice-countries', einvoiceCountries],
  ] as const)('answers /api/lookup/%s to a signed-in user with the whole table', async (path, rows) => {
    const response = await get(`/api/lookup/${path}`, seller.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ code: 0, msg: 'OK', data: rows() });
  });

  it.each([
    'states',
    'classifications',
    'taxes',
    'payment-modes',
    'currencies',
    'units',
    'einvoice-countries',
    'msic',
  ])('refuses /api/lookup/%s without a token or with a made-up one', async (path) => {
    const anonymous = await get(`/api/lookup/${path}`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 401 });
    expect((await get(`/api/lookup/${path}`, 'made-up-token')).statusCode).toBe(401);
  });

  it('answers the states with the 17 codes of the spec', async () => {
    const data = (await get('/api/lookup/states', seller.token)).json().data as {
      code: string;
      name: string;
    }[];
    expect(data).toHaveLength(17);
    expect(data[0]).toEqual({ code: '01', name: 'Johor' });
    expect(data[13]?.name).toMatch(/Kuala Lumpur$/);
    expect(data[16]).toEqual({ code: '17', name: 'Not Applicable' });
  });

  it('answers countries and platforms without a session, for the registration form', async () => {
    const list = await get('/api/lookup/countries');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual(countries());
    expect(
      list
        .json()
        .data.filter((c: { supported: boolean }) => c.supported)
        .map((c: { code: string }) => c.code),
    ).toEqual(['MY', 'TH', 'TW', 'SG', 'PH', 'ID', 'CN', 'VN', 'IN']);

    const shown = await get('/api/lookup/platforms');
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toEqual(platforms());
    expect(shown.json().data[0]).toEqual({ code: 'shopee', name: 'Shopee', logo: '/platforms/shopee.svg' });
    // A stale token does not shut a public lookup.
    expect((await get('/api/lookup/countries', 'made-up-token')).statusCode).toBe(200);
  });

  describe('/api/lookup/msic', () => {
    it('pages the whole table when nothing is searched', async () => {
      const response = await get('/api/lookup/msic?startRow=0&endRow=50', seller.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        code: 0,
        msg: 'OK',
        data: { rows: msicCodes().slice(0, 50), lastRow: msicCodes().length },
      });
      const next = (await get('/api/lookup/msic?startRow=50&endRow=100', seller.token)).json().data;
      expect(next.rows).toEqual(msicCodes().slice(50, 100));
      const defaults = (await get('/api/lookup/msic', seller.token)).json().data;
      expect(defaults.rows).toHaveLength(100);
    });

    it('finds by code and by description', async () => {
      const notApplicable = (await get('/api/lookup/msic?search=00000', seller.token)).json().data;
      expect(notApplicable).toEqual({
        rows: [{ code: '00000', description: 'NOT APPLICABLE', category_ref: '' }],
        lastRow: 1,
      });
      const computers = (
        await get(`/api/lookup/msic?search=${encodeURIComponent('retail sale of computers')}`, seller.token)
      ).json().data;
      expect(computers.rows.map((r: { code: string }) => r.code)).toContain('47411');
      expect(computers.lastRow).toBe(computers.rows.length);
    });

    it.each([
      ['startRow=-1', 400],
      ['endRow=0', 400],
      ['startRow=abc', 400],
      ['startRow=100&endRow=50', 400],
      ['startRow=0&endRow=5000', 400],
      [`search=${'x'.repeat(201)}`, 400],
      ['unknown=1', 400],
    ])('refuses %s with a 400 answer', async (query, status) => {
      const response = await get(`/api/lookup/msic?${query}`, seller.token);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ code: 400, msg: expect.any(String) });
    });

    it('explains a bad range in the caller’s language', async () => {
      const english = await get('/api/lookup/msic?startRow=0&endRow=5000', seller.token);
      expect(english.json().msg).toBe(
        'Ask for at most 1000 rows at a time, with endRow greater than startRow.',
      );
      const chinese = await get('/api/lookup/msic?startRow=0&endRow=5000', seller.token, 'zh-cn');
      expect(chinese.json().msg).toBe('每次最多请求 1000 行，且 endRow 必须大于 startRow。');
      const thai = await get('/api/lookup/msic?startRow=10&endRow=5', seller.token, 'th-th');
      expect(thai.json().msg).toBe('ขอได้ครั้งละไม่เกิน 1000 แถว และ endRow ต้องมากกว่า startRow');
    });
  });
});
