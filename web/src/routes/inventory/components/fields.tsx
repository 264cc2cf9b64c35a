/** What the inventory forms need beside shell/form: the category options, number checks. */

/** Every category in tree order, indented by depth (the one helper of the shared category tree). */
export { categoryOptions } from '@web/components/category-tree';

/** A decimal of at most `integerDigits` digits before the point and `scale` after it, as the API takes it. */
export const isDecimal = (text: string, integerDigits: number, scale: number) =>
  new RegExp(`^\\d{1,${integerDigits}}(\\.\\d{1,${scale}})?$`).test(text.trim());

/** The largest quantity the API takes (soft threshold, initial quantity, combo item quantity). */
export const QUANTITY_MAX = 1_000_000_000;

export const isWholeNumber = (text: string, min = 0) =>
  /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= QUANTITY_MAX;

/** Formats an instant for a grid cell in the interface language. */
export { dateTimeFormatter } from '@web/shell/format';
