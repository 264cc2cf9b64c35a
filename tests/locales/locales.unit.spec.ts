import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSION_AREAS, PERMISSION_KEYS } from '@domain/access/permissions';
import { describe, expect, it } from 'vitest';

/**
 * Every visible string is translated: all six languages carry every key of every namespace, a plural in the forms
 * the language has (en-us `_one`/`_other`; zh-cn, th-th, id-id and vi-vn only `_other`, as i18next asks for them).
 * Placeholders and `$t(…)` references must match English, and every `ns:key` the console names exists.
 */

const LOCALES = path.resolve(import.meta.dirname, '..', '..', 'locales');
const TRANSLATIONS = ['zh-cn', 'th-th', 'id-id', 'vi-vn', 'en-ph'];
const SHELL_NAMESPACES = ['common', 'auth'];
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.set(name, value);
    else for (const [k, v] of keysOf(value, name)) keys.set(k, v);
  }
  return keys;
}

const namespacesOf = (language: string) =>
  readdirSync(path.join(LOCALES, language))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();

const read = (language: string, namespace: string) =>
  keysOf(JSON.parse(readFileSync(path.join(LOCALES, language, `${namespace}.json`), 'utf8')) as Tree);

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|\$t\(([^)]*)\)/g)].map((m) => m[1] ?? `$t(${m[2]})`).sort();

/** English's keys as `language` must have them: a plural in the language's own forms, with English's `_other` text. */
function expected(language: string, reference: Map<string, string>): Map<string, string> {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Map<string, string>();
  for (const [key, text] of reference) {
    const base = key.replace(PLURAL, '');
    // `too_many` is a word, not a plural: a plural form is one whose base has an `_other`.
    if (base === key || !reference.has(`${base}_other`)) keys.set(key, text);
    else if (key.endsWith('_other'))
      for (const form of forms) keys.set(`${base}_${form}`, reference.get(`${base}_${form}`) ?? text);
  }
  return keys;
}

const english = new Map(namespacesOf('en-us').map((ns) => [ns, read('en-us', ns)]));

function compare(language: string, namespace: string) {
  const reference = expected(language, english.get(namespace)!);
  const translated = read(language, namespace);
  const missing = [...reference.keys()].filter((key) => !translated.has(key));
  const extra = [...translated.keys()].filter((key) => !reference.has(key));
  const badPlaceholders = [...reference.entries()]
    .filter(
      ([key, text]) =>
        translated.has(key) && placeholders(text).join() !== placeholders(translated.get(key)!).join(),
    )
    .map(([key]) => key);
  const empty = [...translated.entries()].filter(([, text]) => text.trim() === '').map(([key]) => key);
  return { missing, extra, badPlaceholders, empty };
}

const clean = { missing: [], extra: [], badPlaceholders: [], empty: [] };

describe('locales', () => {
  it('has the shell namespaces in English', () => {
    for (const ns of [...SHELL_NAMESPACES, 'api']) expect(english.has(ns), ns).toBe(true);
  });

  it('has a plural `_other` for every `_one`', () => {
    for (const [namespace, keys] of english) {
      const lone = [...keys.keys()].filter(
        (key) => key.endsWith('_one') && !keys.has(key.replace(/_one$/, '_other')),
      );
      expect({ namespace, lone }).toEqual({ namespace, lone: [] });
    }
  });

  for (const language of TRANSLATIONS) {
    it(`${language} translates every key of every namespace`, () => {
      expect(namespacesOf(language)).toEqual([...english.keys()].sort());
      for (const namespace of english.keys()) {
        expect({ namespace, ...compare(language, namespace) }).toEqual({ namespace, ...clean });
      }
    });
  }

  it('labels every permission key and area', () => {
    const permissions = english.get('permissions');
    expect(permissions, 'locales/en-us/permissions.json').toBeDefined();
    const missing = [
      ...PERMISSION_KEYS.filter((key) => !permissions!.has(key)),
      ...Object.keys(PERMISSION_AREAS)
        .map((area) => `area.${area}`)
        .filter((key) => !permissions!.has(key)),
    ];
    expect(missing).toEqual([]);
  });

  it('has every `ns:key` the console names', () => {
    const webSources = path.resolve(LOCALES, '..', 'web', 'src');
    const files = readdirSync(webSources, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name));
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/['"`]([a-z][a-z-]*):([a-zA-Z_][\w.-]*)['"`]/g)) {
        const [, namespace, key] = match;
        const keys = english.get(namespace!);
        if (!keys) continue; // not a translation key (a URL scheme, a CSS value…)
        if (
          !keys.has(key!) &&
          ![...keys.keys()].some((k) => k.startsWith(`${key}.`) || k.startsWith(`${key}_`))
        ) {
          missing.push(`${path.relative(webSources, file)}: ${namespace}:${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
