import { LANGUAGE_KEY } from '@web/config';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type LanguageCode } from './languages';

/**
 * i18next over the repository's locales/<lang>/<namespace>.json. Each file is its own chunk, loaded when a screen
 * first asks for its namespace in the current language; api*.json are the server's messages and stay out.
 * A namespace a language lacks (id-id, vi-vn and en-ph carry the shell only) falls back to en-us.
 */
const files = import.meta.glob<Record<string, unknown>>(
  ['../../../locales/*/*.json', '!../../../locales/*/api*.json'],
  { import: 'default' },
);

const fileFor = (language: string, namespace: string) =>
  files[`../../../locales/${language}/${namespace}.json`];

const localeFiles: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = fileFor(language, namespace);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (resources) => callback(null, resources as never),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export function storedLanguage(): LanguageCode {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export const i18nReady = i18next
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    lowerCaseLng: true,
    load: 'currentOnly',
    ns: ['common', 'auth'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

document.documentElement.lang = storedLanguage();

/** Switches the interface language: remembered, applied to the page and sent with every API call from now on. */
export async function changeLanguage(language: LanguageCode) {
  localStorage.setItem(LANGUAGE_KEY, language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

export { i18next };
