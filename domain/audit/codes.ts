import type { ErrorTable } from '../shared/errors';

/** The result codes of the auditor's replay and the reports as of a past date (860–879). */
export const AuditCode = {
  /** The as-of instant is not an instant, or lies in the future (400). */
  instantInvalid: 860,
  /** The document is not the account's, or does not exist (404). */
  documentNotFound: 861,
  /** The id names nothing a replay can read (400). */
  idInvalid: 862,
  /** A file sent to be verified is not a signed audit file (400). */
  signedFileInvalid: 863,
  /** A replay page asked past its end, or a page size out of range (400). */
  pageInvalid: 864,
  /** The export format is not CSV or XLSX (400). */
  formatInvalid: 865,
} as const;

export type AuditErrorCode = 'DOCUMENT_NOT_FOUND' | 'AS_OF_IN_FUTURE';

export const auditErrors: ErrorTable<AuditErrorCode> = {
  DOCUMENT_NOT_FOUND: { status: 404, code: AuditCode.documentNotFound, key: 'audit.document_not_found' },
  AS_OF_IN_FUTURE: { status: 400, code: AuditCode.instantInvalid, key: 'audit.as_of_future' },
};
