import { TEXT_LIMITS } from '@domain/shared/limits';

/**
 * An account's print settings (spec §9: logo positions hidden, top left, top right, bottom middle; address display
 * billing only, shipping only, both; font sizes small, medium, large), per document Kedai draws — invoice (INV),
 * packing list (PL), check list (CL), delivery order (DO); the air waybill (AWB) is the marketplace's own — and the
 * company details printed at the top. The values and their limits: the contracts and the console read them too.
 */

export const LOGO_POSITIONS = ['hidden', 'top_left', 'top_right', 'bottom_middle'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];
export const ADDRESS_DISPLAYS = ['billing', 'shipping', 'both'] as const;
export type AddressDisplay = (typeof ADDRESS_DISPLAYS)[number];
export const FONT_SIZES = ['small', 'medium', 'large'] as const;
export type FontSize = (typeof FONT_SIZES)[number];

/** The documents Kedai draws (and so has settings for). */
export const DRAWN_DOCUMENTS = ['INV', 'PL', 'CL', 'DO'] as const;
export type DrawnDocument = (typeof DRAWN_DOCUMENTS)[number];

export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 512 * 1024;

export const COMPANY_LIMITS = {
  name: TEXT_LIMITS.name,
  address: TEXT_LIMITS.address,
  phone: TEXT_LIMITS.phone,
  email: TEXT_LIMITS.email,
  registrationNo: TEXT_LIMITS.reference,
} as const;

export interface DocumentSettings {
  logoPosition: LogoPosition;
  addressDisplay: AddressDisplay;
  fontSize: FontSize;
}

export interface CompanyDetails {
  name: string;
  address: string;
  phone: string;
  email: string;
  registrationNo: string;
}

export interface PrintSettings {
  company: CompanyDetails;
  documents: Record<DrawnDocument, DocumentSettings>;
}

export const DEFAULT_DOCUMENT_SETTINGS: Record<DrawnDocument, DocumentSettings> = {
  INV: { logoPosition: 'top_left', addressDisplay: 'both', fontSize: 'medium' },
  PL: { logoPosition: 'top_left', addressDisplay: 'shipping', fontSize: 'medium' },
  CL: { logoPosition: 'hidden', addressDisplay: 'shipping', fontSize: 'medium' },
  DO: { logoPosition: 'top_left', addressDisplay: 'shipping', fontSize: 'medium' },
};
