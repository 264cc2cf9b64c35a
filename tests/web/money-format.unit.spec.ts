import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moneyFormatter } from '../../web/src/shell/format';

/**
 * Money reads the same on every screen: two decimals, rounded half up, in the interface language, through the one
 * formatter (web/src/shell/format.ts). Screens used to pick their own decimals (the purchase screens showed a
 * four-place average as "4.4444" where the form showed "4.44").
 */

const SRC = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');
const FORMATTER = path.join(SRC, 'shell', 'format.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('money in the console', () => {
  it('shows two decimals, rounded half up, in the language of the interface', () => {
    const money = moneyFormatter('en-US');
    expect(money('4.4444')).toBe('4.44');
    expect(money('12.5000')).toBe('12.50');
    expect(money('0.0050')).toBe('0.01');
    expect(money('1234567.8')).toBe('1,234,567.80');
    expect(money(7)).toBe('7.00');
    expect(money(null)).toBe('');
    expect(money('')).toBe('');
    expect(moneyFormatter('id-ID')('1234.5')).toBe('1.234,50');
  });

  it('is the only place the console decides how many decimals an amount has', () => {
    const own = sourceFiles(SRC).filter(
      (file) =>
        file !== FORMATTER && /(minimum|maximum)FractionDigits:\s*[24]\b/.test(readFileSync(file, 'utf8')),
    );
    expect(own.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
