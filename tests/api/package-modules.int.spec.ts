import { PackageCode, STANDARD_PACKAGES } from '@domain/access/packages';
import {
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Spec §6 "Package flags gate modules": a route of a module the account's package leaves out is refused to everyone
 * of the account, the owner included, with code 450 and a message naming the module; the console learns the
 * package's modules from the user info. And the order routes that any seller user could call now ask for an order key.
 */
describe("the package's modules and the order keys on their routes", () => {
  let api: TestApi;
  /** On a package with every module off. */
  let bare: TestSeller;
  /** On the trial, which has smart scan, downloads and sub-users. */
  let trial: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    const trialPackage = STANDARD_PACKAGES.find((pkg) => pkg.id === 'trial')!;
    await api.database.db
      .insertInto('packages')
      .values({
        id: 'bare',
        name: 'Bare',
        limits: JSON.stringify(trialPackage.limits),
        flags: JSON.stringify({
          userLevelModule: false,
          chat: false,
          smartScan: false,
          subsidyModule: false,
          downloadModule: false,
        }),
      })
      .execute();
    bare = await createSeller(api, { packageId: 'bare' });
    trial = await createSeller(api, { packageId: 'trial' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = caller(() => api);

  const MODULE_ROUTES = [
    ['smartScan', 'POST', '/api/orders/scan/tracking', { tracking_number: 'SPX123' }, 'smart scan'],
    ['downloadModule', 'GET', '/api/inventory/stock/movements/export?format=csv', undefined, 'downloads'],
    ['userLevelModule', 'GET', '/api/setting/users', undefined, 'sub-users'],
  ] as const;

  for (const [module, method, url, body, named] of MODULE_ROUTES) {
    it(`refuses ${method} ${url} when the package leaves out ${module}, and serves it when it has it`, async () => {
      const refused = await call(method, url, bare.token, body);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: PackageCode.moduleNotIncluded });
      expect(refused.json().msg).toContain(named);
      expect(refused.json().msg).toContain('upgrade your package');

      const served = await call(method, url, trial.token, body);
      // Whatever the route answers (a file, a 400 for the made-up tracking number), it is not the module's refusal.
      expect(served.statusCode, served.body).not.toBe(403);
    });
  }

  it("says the refusal in the caller's language", async () => {
    const refused = await call('GET', '/api/setting/users', bare.token, undefined, 'th-th');
    expect(refused.json().msg).toBe('แพ็กเกจของคุณไม่รวมผู้ใช้ย่อยและกลุ่มผู้ใช้ โปรดติดต่อฝ่ายขายเพื่ออัปเกรดแพ็กเกจ');
  });

  it("tells the console the package's modules in the user info", async () => {
    const info = (token: string) =>
      call('GET', '/api/user/info', token).then((answer) => answer.json().data.tenant.package.modules);
    expect(await info(bare.token)).toEqual([]);
    expect(await info(trial.token)).toEqual(['userLevelModule', 'smartScan', 'downloadModule']);
  });

  it('keeps the print settings to those who print or may change them', async () => {
    const noOrderKey = await createSubUser(api, trial.tenantId, ['inventory-master-code']);
    const printer = await createSubUser(api, trial.tenantId, ['orders-unscan']);
    for (const url of ['/api/orders/print-settings', '/api/orders/print-settings/logo']) {
      expect((await call('GET', url, noOrderKey.token)).statusCode, url).toBe(403);
    }
    expect((await call('GET', '/api/orders/print-settings', printer.token)).statusCode).toBe(200);
  });

  it('asks for an order key before reading an action body', async () => {
    const noOrderKey = await createSubUser(api, trial.tenantId, ['inventory-master-code']);
    // A body that is not an action at all: the key is checked first, so the answer is 403, not 400.
    const refused = await call('POST', '/api/orders/actions', noOrderKey.token, {});
    expect(refused.statusCode, refused.body).toBe(403);
  });
});
