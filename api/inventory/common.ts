import { seller } from '@api/auth/session';
import { forbidden, invalid } from '@api/errors';
import { type Activity, logActivity as logSharedActivity } from '@commands/support/activity';
import { PackageLimits } from '@domain/access/packages';
import type { PermissionKey } from '@domain/access/permissions';
/**
 * What the inventory reference routes share: their result codes, field schemas, the id parameter, the tenant lock,
 * the activity-log row every change writes, and the stock hook. The spec's catalogue (§8) names one inventory message
 * ("Only 0 quantity able to be removed from a branch") and no codes, so these follow its pattern: 0 is success,
 * 4xx codes name what went wrong, the HTTP status says what kind of refusal it is.
 */
import { InventoryCode } from '@domain/inventory/codes';
import type { Database } from '@infra/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * On-hand stock of a master code in a warehouse or branch. The stock projection provides it; without one (before the
 * stock side is wired in) every figure is 0.
 */
export type StockOf = (tenantId: string, masterCodeId: string, warehouseId: string) => Promise<number>;

/** Receives a new master code's initial quantity as stock (api/inventory/stock-common.ts initialStockReceiver). */
export type InitialStock = (
  session: { tenantId: string; userId: string },
  masterCodeId: string,
  quantity: number,
) => Promise<void>;

export interface InventoryDeps {
  db: Kysely<Database>;
  stockOf?: StockOf;
  /** Absent (tests of the reference routes alone), the initial quantity is recorded on the master code only. */
  initialStock?: InitialStock;
}

export { IdParams } from '@api/contracts/ids';
export { isUuid } from '@domain/platform/ids';
export { violation } from '@infra/db/errors';

export const iso = (value: Date) => value.toISOString();

// ---- field schemas ----

export const tooLong = (max: number) => invalid(InventoryCode.textInvalid, 'inventory.too_long', { max });

/** Free text that may be empty, trimmed and bounded. */
export const text = (max: number) =>
  z
    .string({ error: invalid(InventoryCode.textInvalid, 'inventory.text_invalid') })
    .trim()
    .max(max, tooLong(max));

/** Text that must not be empty. */
export const requiredText = (max: number, code: number, key: string) =>
  z
    .string({ error: invalid(code, key) })
    .trim()
    .min(1, invalid(code, key))
    .max(max, tooLong(max));

export const phone = z
  .string({ error: invalid(InventoryCode.phoneInvalid, 'inventory.phone_invalid') })
  .trim()
  .max(30, tooLong(30))
  .regex(/^[+0-9 ()-]*$/, invalid(InventoryCode.phoneInvalid, 'inventory.phone_invalid'));

/** The id of a row the body refers to; one that is not a uuid is looked up all the same and found missing. */
export const referenceId = z
  .string({ error: invalid(400, 'inventory.id_invalid') })
  .max(64, invalid(400, 'inventory.id_invalid'));

/**
 * A decimal amount as a JSON number or a numeric string: at most `scale` decimals, never negative, more than 0 when
 * `positive`, within the column's precision. Answered as the canonical text Postgres would give back ("12.50").
 */
export function decimal(opts: { scale: number; integerDigits: number; positive: boolean; message: string }) {
  const pattern = new RegExp(`^\\d{1,${opts.integerDigits}}(\\.\\d{1,${opts.scale}})?$`);
  return z
    .union([z.number({ error: opts.message }), z.string({ error: opts.message }).max(40, opts.message)], {
      error: opts.message,
    })
    .transform((value, ctx) => {
      const textValue = typeof value === 'number' ? String(value) : value.trim();
      if (!pattern.test(textValue) || (opts.positive && Number(textValue) === 0)) {
        ctx.addIssue({ code: 'custom', message: opts.message, input: value });
        return z.NEVER;
      }
      const [whole = '0', fraction = ''] = textValue.split('.');
      return `${BigInt(whole)}.${fraction.padEnd(opts.scale, '0')}`;
    });
}

/** A whole number of pieces within [min, max]; a fraction, a string or anything else is refused with `message`. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

export { QUANTITY_MAX } from '@domain/inventory/codes';

// ---- access ----

/**
 * Read routes several screens need (the category, brand, unit and warehouse pickers): any of `keys` will do.
 * The route declares 'seller' and this check runs before the handler.
 */
export function requireAny(keys: readonly PermissionKey[]) {
  return async (request: FastifyRequest) => {
    const session = seller(request);
    if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
  };
}

// ---- writes ----

export { lockFor, lockTenant } from '@commands/support/locks';

export type SubjectType =
  | 'master_code'
  | 'combo'
  | 'inventory_category'
  | 'brand'
  | 'unit'
  | 'warehouse'
  | 'rack'
  | 'master_code_location';

/** An activity-log row for a change to inventory reference data. */
export const logActivity = (
  db: Kysely<Database>,
  activity: Activity<SubjectType> & { tenantId: string; userId: string },
) => logSharedActivity(db, activity);

/** The package's limit for `limit` (null: unlimited) and its name, read inside the caller's transaction. */
export async function packageLimit(
  trx: Kysely<Database>,
  tenantId: string,
  limit: 'masterCodes' | 'branches',
): Promise<{ name: string; limit: number | null }> {
  const pkg = await trx
    .selectFrom('tenants as n')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .select(['p.name', 'p.limits'])
    .where('n.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return { name: pkg.name, limit: PackageLimits.parse(pkg.limits)[limit] };
}
