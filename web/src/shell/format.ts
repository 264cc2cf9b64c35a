import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The console's one way to write a date and a date-time, in the interface language: every screen goes through
 * these, so a day reads the same on a grid, a drawer and a timeline. The ledger's screens ask for seconds (two
 * movements in one minute must stay apart); the style is otherwise the same.
 */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const DATE_TIME_SECONDS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };

/** A calendar day written yyyy-mm-dd (a purchase's date) is that day wherever the browser is, not UTC midnight. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

type Value = string | number | Date | null | undefined;

function formatter(language: string, options: Intl.DateTimeFormatOptions) {
  const local = new Intl.DateTimeFormat(language, options);
  const utc = new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' });
  return (value: Value) => {
    if (value === null || value === undefined || value === '') return '';
    const calendarDay = typeof value === 'string' && CALENDAR_DAY.test(value);
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return (calendarDay ? utc : local).format(date);
  };
}

/** A date and time in `language` ('' for none); `seconds` for the stock ledger. */
export function dateTimeFormatter(language: string, { seconds = false } = {}) {
  return formatter(language, seconds ? DATE_TIME_SECONDS : DATE_TIME);
}

/** A date in `language` ('' for none); a yyyy-mm-dd day stays that day. */
export function dateFormatter(language: string) {
  return formatter(language, DATE);
}

/** A date and time in the interface language ('' for none); the same function while the language stays. */
export function useDateTime(options: { seconds?: boolean } = {}) {
  const { i18n } = useTranslation();
  const seconds = options.seconds ?? false;
  return useMemo(() => dateTimeFormatter(i18n.language, { seconds }), [i18n.language, seconds]);
}

/** A date in the interface language ('' for none). */
export function useDate() {
  const { i18n } = useTranslation();
  return useMemo(() => dateFormatter(i18n.language), [i18n.language]);
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

/** A figure that is not money (a ratio, hours): up to two decimals in the interface language. */
export function decimalFormatter(language: string) {
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  return (value: number) => format.format(value);
}

/** Money in the interface language (moneyFormatter); the same function while the language stays. */
export function useMoney() {
  const { i18n } = useTranslation();
  return useMemo(() => moneyFormatter(i18n.language), [i18n.language]);
}
