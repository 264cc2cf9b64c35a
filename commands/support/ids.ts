import { createHash } from 'node:crypto';

/**
 * The id of the n-th event a command appends, derived from the command's id: a retried command (the same
 * idempotency key) proposes the same event ids, so the store keeps its events once and the retry finds them.
 */
export function eventIdFor(commandId: string, index = 0): string {
  const hex = createHash('sha256').update(`${commandId}\u0000${index}`).digest('hex');
  // Shaped as a version-5-style UUID (name-based), variant 10xx.
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
