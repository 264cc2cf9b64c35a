import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { rule } from './rules';

/**
 * The field schemas the inventory reference contracts share (zod only): bounded text, phone numbers, the id of a row
 * a body refers to, decimal amounts and whole numbers of pieces.
 */

export const tooLong = (max: number) => rule(InventoryCode.textInvalid, 'inventory.too_long', { max });

/** Free text that may be empty, trimmed and bounded. */
export const text = (max: number) =>
  z
    .string({ error: rule(InventoryCode.textInvalid, 'inventory.text_invalid') })
    .trim()
    .max(max, tooLong(max));

/** Text that must not be empty. */
export const requiredText = (max: number, code: number, key: string) =>
  z
    .string({ error: rule(code, key) })
    .trim()
    .min(1, rule(code, key))
    .max(max, tooLong(max));

export const phone = z
  .string({ error: rule(InventoryCode.phoneInvalid, 'inventory.phone_invalid') })
  .trim()
  .max(TEXT_LIMITS.phone, tooLong(TEXT_LIMITS.phone))
  .regex(/^[+0-9 ()-]*$/, rule(InventoryCode.phoneInvalid, 'inventory.phone_invalid'));

/** The id of a row the body refers to; one that is not a uuid is looked up all the same and found missing. */
export const referenceId = z
  .string({ error: rule(400, 'inventory.id_invalid') })
  .max(64, rule(400, 'inventory.id_invalid'));

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

/** A whole number within [min, max]; a fraction, a string or anything else is refused with `message`. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/** A whole number in a query string, within [min, max]. */
export const wholeNumberText = (min: number, max: number, message: string) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

export const stamps = { created_at: z.string(), updated_at: z.string() };

export const nothingToChange = rule(InventoryCode.nothingToChange, 'inventory.nothing_to_change');
export const nonEmpty = (changes: object) => Object.keys(changes).length > 0;

/** The answer of a delete: the id deleted. */
export const DeletedId = z.object({ id: z.string() });
