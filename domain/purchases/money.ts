/**
 * Money in purchasing: amounts travel as decimal strings with four places ("12.5000"), the precision unit costs and
 * average costs are kept in, and are computed as whole ten-thousandths in bigint, so a sum, a discount share or an
 * average comes out the same on every run and on every rebuild (no binary floating point).
 */

export const MONEY_SCALE = 4;
const FACTOR = 10n ** BigInt(MONEY_SCALE);

/** "12.5" → 125000n (ten-thousandths). The text must be a plain non-negative decimal of at most four places. */
export function toUnits(amount: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(amount.trim());
  if (!match) throw new RangeError(`not an amount: ${amount}`);
  return BigInt(match[1]!) * FACTOR + BigInt((match[2] ?? '').padEnd(MONEY_SCALE, '0'));
}

/** 125000n → "12.5000"; a negative amount keeps its sign. */
export function fromUnits(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  return `${sign}${magnitude / FACTOR}.${(magnitude % FACTOR).toString().padStart(MONEY_SCALE, '0')}`;
}

/** `numerator / denominator` rounded half up (both non-negative, the denominator above zero). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('division by a non-positive number');
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Whether `text` is an amount `toUnits` takes. */
export const isAmount = (text: string) => /^\d{1,14}(\.\d{1,4})?$/.test(text);

/**
 * An amount as the server shows it to people (printed documents): rounded half up to two places, thousands grouped
 * ("1234.5650" → "1,234.57"). The console's one formatter (web/src/shell/format.ts) follows the same rule, so a
 * four-place amount reads the same on paper and on screen.
 */
export function shownAmount(amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const places = Math.max(fraction.length, 2);
  const exact = BigInt(whole + fraction.padEnd(places, '0'));
  const cents = divideRounded(exact, 10n ** BigInt(places - 2));
  const text = `${cents / 100n}`.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents > 0n ? sign : ''}${text}.${(cents % 100n).toString().padStart(2, '0')}`;
}
