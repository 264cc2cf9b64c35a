/** The interface languages, each named in its own language for the switch. */
export const LANGUAGES = [
  { code: 'en-us', name: 'English' },
  { code: 'zh-cn', name: '简体中文' },
  { code: 'th-th', name: 'ไทย' },
  { code: 'id-id', name: 'Bahasa Indonesia' },
  { code: 'vi-vn', name: 'Tiếng Việt' },
  { code: 'en-ph', name: 'English (Philippines)' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'en-us';

export const isLanguage = (value: string | null | undefined): value is LanguageCode =>
  LANGUAGES.some((language) => language.code === value);
