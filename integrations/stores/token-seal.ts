import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A store's marketplace tokens are sealed at rest: AES-256-GCM under the process's token key, with the store's id
 * as associated data, so a database dump does not hand out access to the sellers' shops, and a token copied onto
 * another store's row does not open. Sealed text is `v1.<iv>.<tag>.<ciphertext>` (base64url). A row written
 * before tokens were sealed (no `v1.`) is read as it is, and sealed when it is next saved (the next refresh).
 */

const VERSION = 'v1';

export function sealToken(key: Buffer, storeId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(storeId));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The token, or null when it does not open (another key, another store's row, tampered). */
export function openToken(key: Buffer, storeId: string, stored: string): string | null {
  const parts = stored.split('.');
  if (parts[0] !== VERSION) return stored;
  if (parts.length !== 4) return null;
  const [iv, tag, sealed] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(storeId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
