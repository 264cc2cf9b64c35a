// A time zone west of UTC, set before any date is formatted: a yyyy-mm-dd day read as UTC midnight would show the
// day before here.
process.env.TZ = 'America/Los_Angeles';

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateFormatter, dateTimeFormatter } from '../../web/src/shell/format';

/**
 * Dates and times on the console: one helper writes them all (`web/src/shell/format.ts`), in the interface language,
 * so a screen cannot drift to a format of its own ("dates in three formats").
 */

const SRC = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');
const HELPER = path.join('shell', 'format.ts');

describe('the console date helper', () => {
  it('writes a date-time in the interface language, one style for every screen', () => {
    expect(dateTimeFormatter('en-us')('2026-01-31T20:05:07Z')).toBe('Jan 31, 2026, 12:05 PM');
    expect(dateTimeFormatter('id-id')('2026-01-31T20:05:07Z')).toBe('31 Jan 2026, 12.05');
    expect(dateTimeFormatter('en-us', { seconds: true })('2026-01-31T20:05:07Z')).toBe(
      'Jan 31, 2026, 12:05:07 PM',
    );
    expect(dateTimeFormatter('en-us')(Date.parse('2026-01-31T20:05:07Z'))).toBe('Jan 31, 2026, 12:05 PM');
  });

  it('keeps a calendar day (yyyy-mm-dd) on its day in any time zone', () => {
    expect(dateFormatter('en-us')('2026-01-31')).toBe('Jan 31, 2026');
    expect(dateFormatter('id-id')('2026-01-31')).toBe('31 Jan 2026');
    expect(dateFormatter('en-us')('2026-01-31T20:05:07Z')).toBe('Jan 31, 2026');
  });

  it('writes nothing for no value, and an unreadable value as it came', () => {
    for (const format of [dateFormatter('en-us'), dateTimeFormatter('en-us')]) {
      expect(format(null)).toBe('');
      expect(format(undefined)).toBe('');
      expect(format('')).toBe('');
      expect(format('soon')).toBe('soon');
    }
  });

  it('is the only place the console formats a date', () => {
    const offenders = readdirSync(SRC, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => path.relative(SRC, file) !== HELPER)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, at: `${path.relative(SRC, file)}:${index + 1}` }))
          .filter(({ line }) =>
            /toLocale(Date|Time)String\(|dateStyle|timeStyle|new Date\([^)]*\)\.toLocaleString/.test(line),
          )
          .map(({ at }) => at),
      );
    expect(offenders).toEqual([]);
  });
});
