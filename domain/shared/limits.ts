/**
 * One rule for how long what a seller types may be, by the kind of text it is: the contracts refuse beyond it (never
 * cut), the console shows it beside the field, the domain checks it where it checks text. The spec states no figure
 * for these (shell.md §9: "title length … not shown"), so they follow common practice: a code fits a Code 128 barcode
 * and a marketplace SKU, an e-mail address RFC 5321's 254, a web address what browsers keep.
 */
export const TEXT_LIMITS = {
  /** Codes and SKUs: master codes, warehouse, branch and supplier codes, seller SKUs. */
  code: 64,
  /** Names: of master codes, places, racks, categories, brands, units, groups, stores, suppliers, companies, people. */
  name: 255,
  /** A document's own reference number. */
  reference: 100,
  phone: 30,
  email: 254,
  /** A reason given for an action (reject, cancel, adjust). */
  reason: 500,
  address: 500,
  /** Free notes and remarks. */
  note: 1000,
  url: 2048,
} as const;

export type TextKind = keyof typeof TEXT_LIMITS;
