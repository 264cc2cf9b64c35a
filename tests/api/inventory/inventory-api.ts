import type { PackageLimits } from '@domain/access/packages';
import type { TestApi } from '@tests/support/api';
import { expect } from 'vitest';

/** What the inventory API tests share: a caller, answer readers, and a package with small limits. */

export { caller, type Method } from '@tests/support/api';

/** ag-grid's query string: plain values as they are, models as JSON. */
export function gridParams(query: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

type Answer = { statusCode: number; body: string; json(): unknown };

/** The data of a successful answer (HTTP 200, code 0). */
export function data<T = Record<string, unknown>>(response: Answer): T {
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as { code: number; data: T };
  expect(answer.code).toBe(0);
  return answer.data;
}

/** The status, code and message of a refusal. */
export function refusal(response: Answer): { status: number; code: number; msg: string } {
  const answer = response.json() as { code: number; msg: string };
  return { status: response.statusCode, code: answer.code, msg: answer.msg };
}

/** A package of its own with small limits, so a test reaches them in a few calls. */
export async function createSmallPackage(
  api: TestApi,
  id: string,
  limits: Partial<PackageLimits>,
): Promise<string> {
  const full: PackageLimits = {
    monthlyOrders: 100,
    masterCodes: null,
    marketplaces: 1,
    subUsers: 1,
    branches: null,
    dropshipping: false,
    supplier: false,
    dealerLevel: null,
    ...limits,
  };
  await api.database.db
    .insertInto('packages')
    .values({ id, name: `Small ${id}`, limits: JSON.stringify(full) })
    .execute();
  return id;
}

export async function activities(api: TestApi, tenantId: string, subjectId: string) {
  return api.database.db
    .selectFrom('activity_log')
    .select(['action', 'subject_type', 'user_id', 'detail'])
    .where('tenant_id', '=', tenantId)
    .where('subject_id', '=', subjectId)
    .orderBy('id')
    .execute();
}
