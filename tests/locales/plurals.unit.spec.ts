import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { translate } from '@infra/i18n';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

/**
 * Counts read right in every language: a number placed before a counted noun ("{{n}} orders") is an i18next plural
 * (`_one`/`_other`), so no screen and no server message says "1 orders", "1 codes" or "1 layers".
 */

const LOCALES = path.resolve(import.meta.dirname, '..', '..', 'locales');
type Tree = { [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );

const read = (language: string, namespace: string) =>
  JSON.parse(readFileSync(path.join(LOCALES, language, `${namespace}.json`), 'utf8')) as Tree;

const namespaces = readdirSync(path.join(LOCALES, 'en-us')).map((file) => file.replace(/\.json$/, ''));
const english = namespaces.flatMap((ns) =>
  flatten(read('en-us', ns)).map(([key, text]) => ({ ns, key, text })),
);

/** Placeholders that hold a limit (always many), not a count. */
const LIMITS = new Set([
  'max',
  'min',
  'limit',
  'length',
  'size',
  'unpacked',
  'capacity',
  'per_sheet',
  'rows',
]);
/** Sign-in links and codes are valid for a configured number of minutes (10 or more), never one. */
const VALIDITY = new Set([
  'api:auth.unlock_mail_body',
  'api-register:register.mail.otp_body',
  'api-register:recovery.mail.password_body',
  'api-register:recovery.mail.pin_body',
]);
const COUNTED =
  /\{\{(\w+)\}\} (?:[a-z-]+ )?(orders|codes|layers|rows|items|stores|batches|units|users|movements|sub-categories|master codes|seconds|minutes|characters|labels|images|lines|pcs)\b/g;

describe('plurals', () => {
  it('makes every counted noun an i18next plural', () => {
    const unplural = english
      .filter(
        ({ ns, key }) => !key.endsWith('_other') && !key.endsWith('_one') && !VALIDITY.has(`${ns}:${key}`),
      )
      .flatMap(({ ns, key, text }) =>
        [...text.matchAll(COUNTED)].filter((m) => !LIMITS.has(m[1]!)).map((m) => `${ns}:${key}: ${m[0]}`),
      )
      // The transfer timeline's wording is rewritten by the "internal words" defect of issue 14.
      .filter((found) => !found.startsWith('transfers:timeline.'));
    expect(unplural).toEqual([]);
  });

  it('says "1 order", not "1 orders", on every console screen', async () => {
    const console = i18next.createInstance();
    await console.init({
      lng: 'en-us',
      lowerCaseLng: true,
      interpolation: { escapeValue: false },
      resources: { 'en-us': Object.fromEntries(namespaces.map((ns) => [ns, read('en-us', ns)])) },
    });
    const plurals = english.filter(({ key }) => key.endsWith('_one'));
    expect(plurals.length).toBeGreaterThan(20);
    for (const { ns, key, text } of plurals) {
      const base = key.replace(/_one$/, '');
      const one = console.t(`${ns}:${base}`, { count: 1 });
      expect(one, `${ns}:${base}`).toBe(text.replaceAll('{{count}}', '1'));
      expect(one, `${ns}:${base}`).not.toMatch(
        /\b1 (orders|codes|layers|rows|items|stores|batches|units|users)\b/,
      );
      expect(console.t(`${ns}:${base}`, { count: 2 }), `${ns}:${base}`).not.toBe(one);
    }
    expect(console.t('common:count.orders', { count: 1 })).toBe('1 order');
    expect(console.t('common:count.codes', { count: 1 })).toBe('1 code');
    expect(console.t('common:count.layers', { count: 1 })).toBe('1 layer');
    expect(console.t('common:count.layers', { count: 3 })).toBe('3 layers');
  });

  it('chooses the plural form in server messages by the language', () => {
    expect(translate('en-us', 'inventory.unit.in_use', { count: 1 })).toBe(
      '1 master code uses this unit. Change its unit before deleting it.',
    );
    expect(translate('en-us', 'inventory.unit.in_use', { count: 3 })).toBe(
      '3 master codes use this unit. Change their unit before deleting it.',
    );
    expect(translate('en-us', 'orders.action_done', { succeeded: 1, count: 1 })).toBe(
      'Done for 1 of 1 order.',
    );
    // Indonesian has one form: `_other` serves every count.
    expect(translate('id-id', 'inventory.unit.in_use', { count: 1 })).toBe(
      '1 kode master memakai satuan ini. Ubah satuannya sebelum menghapus.',
    );
  });
});
