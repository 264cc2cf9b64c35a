import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The API's own messages (result-code messages, validation messages) in the caller's language: the `language`
 * header of spec §7, default en-us. They live in `locales/<lang>/api*.json` beside the console's namespaces and use
 * the same `{{name}}` interpolation as i18next.
 */

import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@domain/platform/languages';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language };

const aliases: Record<string, Language> = {
  en: 'en-us',
  zh: 'zh-cn',
  'zh-hans': 'zh-cn',
  th: 'th-th',
  id: 'id-id',
  vi: 'vi-vn',
};

/** The language a `language` (or Accept-Language) header asks for; anything unknown falls back to en-us. */
export function languageOf(header: string | string[] | undefined): Language {
  const first = (Array.isArray(header) ? header[0] : header)
    ?.split(',')[0]
    ?.split(';')[0]
    ?.trim()
    .toLowerCase();
  if (!first) return DEFAULT_LANGUAGE;
  if ((LANGUAGES as readonly string[]).includes(first)) return first as Language;
  return aliases[first] ?? aliases[first.split('-')[0]!] ?? DEFAULT_LANGUAGE;
}

export type MessageParams = Record<string, string | number>;
type Catalogue = Record<string, string>;

export const LOCALES_DIR = path.resolve(import.meta.dirname, '..', 'locales');

/** Every `api*.json` of a language (`api.json`, `api-announcements.json`, …), merged: keys carry their area. */
function loadCatalogues(): Map<Language, Catalogue> {
  const catalogues = new Map<Language, Catalogue>();
  for (const language of LANGUAGES) {
    const dir = path.join(LOCALES_DIR, language);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^api(-[\w-]+)?\.json$/.test(f)) : [];
    const catalogue: Catalogue = {};
    for (const file of files.sort())
      flatten(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), '', catalogue);
    catalogues.set(language, catalogue);
  }
  return catalogues;
}

function flatten(tree: unknown, prefix = '', into: Catalogue = {}): Catalogue {
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into[name] = value;
    else flatten(value, name, into);
  }
  return into;
}

const catalogues = loadCatalogues();

export function hasMessage(key: string): boolean {
  const english = catalogues.get(DEFAULT_LANGUAGE);
  return english?.[key] !== undefined || english?.[`${key}_other`] !== undefined;
}

const pluralRules = new Map(LANGUAGES.map((language) => [language, new Intl.PluralRules(language)]));

/**
 * `key` as i18next resolves it: with a numeric `count`, the language's plural form (`key_one`, `key_other`; zh-cn,
 * th-th, id-id and vi-vn have only `_other`), so no message reads "1 rows".
 */
function templateOf(language: Language, key: string, count: unknown): string | undefined {
  const catalogue = catalogues.get(language);
  if (typeof count === 'number') {
    const form = pluralRules.get(language)!.select(count);
    return catalogue?.[`${key}_${form}`] ?? catalogue?.[`${key}_other`] ?? catalogue?.[key];
  }
  return catalogue?.[key] ?? catalogue?.[`${key}_other`];
}

/**
 * The message for `key` in `language` (falling back to en-us, then to the key itself; plural by `count`), with
 * `{{name}}` filled in; `$t(other.key)` in a message is that message, as in i18next (`$t(transfer.status.{{status}})` names a status in
 * the caller's words).
 */
export function translate(language: Language, key: string, params: MessageParams = {}): string {
  const template =
    templateOf(language, key, params.count) ?? templateOf(DEFAULT_LANGUAGE, key, params.count) ?? key;
  return template
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      params[name] === undefined ? whole : String(params[name]),
    )
    .replace(/\$t\(([\w.]+)\)/g, (_whole, nested: string) => translate(language, nested, params));
}
