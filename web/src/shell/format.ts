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

/**
 * Money, the one way every screen shows it: two decimals in `language` ('' for none). The server keeps amounts at
 * four places rounded half up (domain/purchases/money.ts); shown, they round half up again to two, so the same
 * amount reads the same on the order, the note, the list and the master code.
 */
export function moneyFormatter(language: string) {
  const format = new Intl.NumberFormat(language, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    roundingMode: 'halfExpand',
  });
  return (amount: string | number | null | undefined) => {
    if (amount === null || amount === undefined || amount === '') return '';
    const value = Number(amount);
    return Number.isFinite(value) ? format.format(value) : String(amount);
  };
}

/** Money in the interface language (moneyFormatter); the same function while the language stays. */
export function useMoney() {
  const { i18n } = useTranslation();
  return useMemo(() => moneyFormatter(i18n.language), [i18n.language]);
}
