import { TEXT_LIMITS } from '@domain/shared/limits';

/**
 * A purchasing supplier (spec §3 Supplier): a plain record, not an event stream. What every way of writing one (the
 * form, the bulk file) checks alike: the fields in the bulk file's order, each field's longest value, and the shapes
 * of a contact number, an email and a currency.
 */

export const SUPPLIER_STATUSES = ['active', 'inactive'] as const;
export type SupplierStatus = (typeof SUPPLIER_STATUSES)[number];

export const SUPPLIER_COLUMNS = [
  'name',
  'company',
  'contact_number',
  'address',
  'city',
  'postal_code',
  'state',
  'country',
  'email',
  'currency',
  'vat_number',
  'code',
] as const;
export type SupplierColumn = (typeof SUPPLIER_COLUMNS)[number];
/** The first columns are required: a supplier's name, company, contact number and address in full. */
export const REQUIRED_SUPPLIER_COLUMNS = 8;

/** Each field's longest value. */
export const SUPPLIER_LIMITS: Record<SupplierColumn, number> = {
  name: TEXT_LIMITS.name,
  company: TEXT_LIMITS.name,
  contact_number: TEXT_LIMITS.phone,
  address: TEXT_LIMITS.address,
  city: 100,
  postal_code: 20,
  state: 100,
  country: 100,
  email: TEXT_LIMITS.email,
  currency: 3,
  vat_number: 50,
  code: TEXT_LIMITS.code,
};

export const CONTACT_NUMBER = /^[+0-9 ()-]{3,30}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CURRENCY = /^[A-Z]{3}$/;
