import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** A date and time in `language` ('' for none). */
export function dateTimeFormatter(language: string) {
  const format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return (value: string | null | undefined) => (value ? format.format(new Date(value)) : '');
}

/** A date and time in the interface language ('' for none); the same function while the language stays. */
export function useDateTime() {
  const { i18n } = useTranslation();
  return useMemo(() => dateTimeFormatter(i18n.language), [i18n.language]);
}
