import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type Cell, csvField } from '@infra/sheets/write';

/**
 * The auditor's signed CSV: a header line and a line per row (CRLF, UTF-8 after a BOM for spreadsheets), then two
 * trailer lines: `#sha256,<hex>`, the SHA-256 of every byte of the header and rows, and `#hmac-sha256,<hex>`, an
 * HMAC-SHA256 of that hash under the account's audit key. Anyone can recompute the hash to see that no row changed;
 * only Kedai holds the key, so a forger who edits rows and recomputes the hash still fails the HMAC. The account's
 * key is derived from the server's (AUDIT_SIGNING_KEY) and the tenant id: a file signed for one account does not
 * verify for another.
 */

const BOM = '\ufeff';
const HASH = '#sha256';
const SIGNATURE = '#hmac-sha256';

const line = (cells: readonly Cell[]) => `${cells.map(csvField).join(',')}\r\n`;

/** The server's audit key: the configured one, else one derived from the client secret (stable across restarts). */
export const serverAuditKey = (configured: Buffer | undefined, clientSecret: string) =>
  configured ?? createHash('sha256').update(`kedai audit signing\0${clientSecret}`).digest();

/** The account's audit key. */
export const accountAuditKey = (serverKey: Buffer, tenantId: string) =>
  createHmac('sha256', serverKey).update(`kedai audit file\0${tenantId}`).digest();

const signatureOf = (key: Buffer, hash: string) => createHmac('sha256', key).update(hash).digest('hex');

/** The signed file, in chunks while the rows come: never all held at once. */
export async function* signedCsv(
  key: Buffer,
  headers: readonly string[],
  rows: AsyncIterable<readonly Cell[]>,
): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const head = line(headers);
  hash.update(head);
  yield `${BOM}${head}`;
  let batch = '';
  for await (const row of rows) {
    batch += line(row);
    if (batch.length > 64 * 1024) {
      hash.update(batch);
      yield batch;
      batch = '';
    }
  }
  hash.update(batch);
  const digest = hash.digest('hex');
  yield `${batch}${line([HASH, digest])}${line([SIGNATURE, signatureOf(key, digest)])}`;
}

export interface SignedFileCheck {
  hashMatches: boolean;
  signatureMatches: boolean;
  rows: number;
  sha256: string;
}

const TRAILER = /\r?\n#sha256,([0-9a-f]{64})\r?\n#hmac-sha256,([0-9a-f]{64})(\r?\n)?$/;

/** Checks a signed file's text; undefined when it is not one (no trailer). */
export function verifySignedCsv(key: Buffer, text: string): SignedFileCheck | undefined {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const trailer = TRAILER.exec(body);
  if (!trailer) return undefined;
  const [, stated, signature] = trailer as unknown as [string, string, string];
  // The trailer's own line break ends the last row: it belongs to the rows the hash covers.
  const rows = body.slice(0, trailer.index + (body[trailer.index] === '\r' ? 2 : 1));
  const sha256 = createHash('sha256').update(rows).digest('hex');
  const expected = Buffer.from(signatureOf(key, stated), 'hex');
  const hashMatches = sha256 === stated;
  return {
    hashMatches,
    signatureMatches: hashMatches && timingSafeEqual(expected, Buffer.from(signature, 'hex')),
    rows: Math.max(0, rows.split('\n').length - 2),
    sha256,
  };
}
