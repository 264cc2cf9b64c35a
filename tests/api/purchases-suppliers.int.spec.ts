import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, data, gridParams } from './inventory/inventory-api';
import { purchaseCalls, refused } from './purchases-support';

/**
 * Purchasing suppliers: the spec's fields and required ones ("Must fill store name"), a unique code, deactivation,
 * the account's own only, and the bulk file — fixed column order, UTF-8 (with or without a BOM), any bad row applies nothing.
 */

let api: TestApi;
let owner: TestSeller;
let stranger: TestSeller;
const calls = purchaseCalls(() => api);

beforeAll(async () => {
  api = await createTestApi();
  owner = await createSeller(api);
  stranger = await createSeller(api);
});

afterAll(async () => {
  await api?.close();
});

const supplier = {
  name: 'Kedai Runcit Ah Seng',
  company: 'Ah Seng Trading Sdn Bhd',
  contact_number: '+60 12-345 6789',
  email: 'orders@ahseng.my',
  address: '12 Jalan Sultan',
  city: 'Kuala Lumpur',
  postal_code: '50000',
  state: 'Wilayah Persekutuan',
  country: 'Malaysia',
  currency: 'myr',
  vat_number: 'SST-0001',
  code: 'AHSENG',
};

const upload = (body: Buffer, filename = 'suppliers.csv', type = 'text/csv') =>
  api.app.inject({
    method: 'POST',
    url: `/api/purchases/suppliers/upload?filename=${filename}`,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': type },
    payload: body,
  });

const HEADER =
  'name,company,contact_number,address,city,postal_code,state,country,email,currency,vat_number,code';

describe('suppliers', () => {
  it('adds a supplier with the spec fields and lists it', async () => {
    const added = data<Record<string, unknown>>(
      await calls.post('/api/purchases/suppliers', owner.token, supplier),
    );
    expect(added).toMatchObject({ ...supplier, currency: 'MYR', status: 'active' });
    const list = data<{ rows: { id: string }[]; lastRow: number }>(
      await calls.call('GET', `/api/purchases/suppliers?${gridParams({ search: 'ah seng' })}`, owner.token),
    );
    expect(list.rows.map((row) => row.id)).toEqual([added.id]);
    expect(list.lastRow).toBe(1);
    expect((await activities(api, owner.tenantId, added.id as string)).map((row) => row.action)).toEqual([
      'supplier.created',
    ]);
  });

  it('refuses a missing store name with "Must fill store name", and each required field with its own code', async () => {
    const { name: _name, ...withoutName } = supplier;
    const msg = refused(
      await calls.post('/api/purchases/suppliers', owner.token, { ...withoutName, code: '' }),
      400,
      520,
    );
    expect(msg).toBe('Must fill store name');
    const required = {
      company: 521,
      contact_number: 522,
      address: 523,
      city: 524,
      postal_code: 525,
      state: 526,
      country: 527,
    };
    for (const [field, code] of Object.entries(required)) {
      refused(
        await calls.post('/api/purchases/suppliers', owner.token, { ...supplier, code: '', [field]: '  ' }),
        400,
        code,
      );
    }
    refused(
      await calls.post('/api/purchases/suppliers', owner.token, { ...supplier, code: '', email: 'nope' }),
      400,
      528,
    );
    refused(
      await calls.post('/api/purchases/suppliers', owner.token, {
        ...supplier,
        code: '',
        contact_number: 'call me',
      }),
      400,
      522,
    );
    refused(
      await calls.post('/api/purchases/suppliers', owner.token, {
        ...supplier,
        code: '',
        currency: 'RINGGIT',
      }),
      400,
      549,
    );
    refused(
      await calls.post('/api/purchases/suppliers', owner.token, { ...supplier, code: 'ahseng' }),
      409,
      529,
    );
  });

  it('edits and deactivates a supplier; another tenant cannot see or change it; a viewer cannot change it', async () => {
    const added = await calls.supplier(owner.token, 'To Deactivate');
    const edited = data<{ city: string; status: string }>(
      await calls.call('PUT', `/api/purchases/suppliers/${added.id}`, owner.token, { city: 'Penang' }),
    );
    expect(edited.city).toBe('Penang');
    const deactivated = data<{ status: string }>(
      await calls.call('PUT', `/api/purchases/suppliers/${added.id}`, owner.token, { status: 'inactive' }),
    );
    expect(deactivated.status).toBe('inactive');
    const options = data<{ id: string }[]>(
      await calls.call('GET', '/api/purchases/suppliers/options', owner.token),
    );
    expect(options.map((option) => option.id)).not.toContain(added.id);
    expect((await activities(api, owner.tenantId, added.id)).map((row) => row.action)).toEqual([
      'supplier.created',
      'supplier.updated',
      'supplier.deactivated',
    ]);
    refused(await calls.call('GET', `/api/purchases/suppliers/${added.id}`, stranger.token), 404, 404);
    refused(
      await calls.call('PUT', `/api/purchases/suppliers/${added.id}`, stranger.token, { city: 'X' }),
      404,
      404,
    );
    refused(await calls.call('PUT', `/api/purchases/suppliers/${added.id}`, owner.token, {}), 400, 548);
    const viewer = await createSubUser(api, owner.tenantId, ['purchases-index']);
    expect(data(await calls.call('GET', `/api/purchases/suppliers/${added.id}`, viewer.token))).toMatchObject(
      {
        id: added.id,
      },
    );
    refused(
      await calls.call('PUT', `/api/purchases/suppliers/${added.id}`, viewer.token, { city: 'X' }),
      403,
      403,
    );
    const nobody = await createSubUser(api, owner.tenantId, []);
    refused(await calls.call('GET', '/api/purchases/suppliers', nobody.token), 403, 403);
  });
});

describe('supplier bulk file', () => {
  it('adds the rows of a good CSV, and updates the supplier a known code names', async () => {
    const csv = [
      HEADER,
      'Toko Jaya,PT Jaya,+62 21 555 0101,Jl. Thamrin 1,Jakarta,10310,DKI Jakarta,Indonesia,,idr,,JAYA',
      // The optional columns may be left off the end of a row.
      '"Bangkok Goods, Ltd",Bangkok Goods Co,+66 2 555 0199,99 Sukhumvit,Bangkok,10110,Bangkok,Thailand',
      'Ah Seng (moved),Ah Seng Trading Sdn Bhd,+60 12-345 6789,1 Jalan Baru,Ipoh,30000,Perak,Malaysia,,MYR,,ahseng',
    ].join('\n');
    const result = data<{ created: number; updated: number }>(await upload(Buffer.from(csv)));
    expect(result).toEqual({ created: 2, updated: 1 });
    const list = data<{ rows: { code: string; name: string; currency: string; city: string }[] }>(
      await calls.call(
        'GET',
        `/api/purchases/suppliers?${gridParams({ sortModel: [{ colId: 'name', sort: 'asc' }], endRow: 50 })}`,
        owner.token,
      ),
    );
    const byName = new Map(list.rows.map((row) => [row.name, row]));
    expect(byName.get('Toko Jaya')).toMatchObject({ code: 'JAYA', currency: 'IDR' });
    expect(byName.get('Bangkok Goods, Ltd')).toMatchObject({ code: '', city: 'Bangkok' });
    expect(byName.get('Ah Seng (moved)')).toMatchObject({ code: 'AHSENG', city: 'Ipoh' });
  });

  it('reads the same columns from an XLSX file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Suppliers');
    sheet.addRow(HEADER.split(','));
    sheet.addRow([
      'Hanoi Supply',
      'Hanoi Supply JSC',
      '+84 24 555 0100',
      '1 Trang Tien',
      'Hanoi',
      '100000',
      'Hanoi',
      'Vietnam',
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const result = data<{ created: number; updated: number }>(
      await upload(
        bytes,
        'suppliers.xlsx',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ),
    );
    expect(result).toEqual({ created: 1, updated: 0 });
  });

  it('refuses a file with any bad row — every bad row listed — and applies nothing', async () => {
    const count = async () =>
      Number(
        (
          await api.database.db
            .selectFrom('suppliers')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', owner.tenantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const csv = [
      HEADER,
      'Good One,Good Co,+60 3 1111 2222,1 Road,KL,50000,WP,Malaysia',
      ',No Name Co,+60 3 1111 2222,1 Road,KL,50000,WP,Malaysia',
      'Short Row,Co,+60 3 1111 2222',
      'Bad Mail,Co,+60 3 1111 2222,1 Road,KL,50000,WP,Malaysia,not-an-email,,,',
      'Dup A,Co,+60 3 1111 2222,1 Road,KL,50000,WP,Malaysia,,,,DUP',
      'Dup B,Co,+60 3 1111 2222,1 Road,KL,50000,WP,Malaysia,,,,dup',
    ].join('\n');
    const response = await upload(Buffer.from(csv));
    refused(response, 400, 530);
    const rows = (response.json() as { rows: { row: number; column: string | null; message: string }[] })
      .rows;
    expect(rows.map((row) => [row.row, row.column])).toEqual([
      [3, 'name'],
      [4, null],
      [5, 'email'],
      [7, 'code'],
    ]);
    expect(rows[0]!.message).toBe('Store name is required.');
    expect(await count()).toBe(before);
    refused(await upload(Buffer.from([0xff, 0xfe, 0x41, 0x00])), 400, 531);
    refused(await upload(Buffer.from(HEADER)), 400, 531);
    refused(await upload(Buffer.from('x'), 'suppliers.txt'), 400, 531);
    expect(await count()).toBe(before);
  });
});
