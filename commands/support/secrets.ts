import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** Passwords, PINs and one-time codes are argon2id hashes; bearer tokens and reset links are random and stored as SHA-256. */

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
// Algorithm.Argon2id (2): the package exports it as a const enum, which isolated modules cannot read.
const argonOptions = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashSecret = (secret: string) => hash(secret, argonOptions);

export async function verifySecret(stored: string, secret: string): Promise<boolean> {
  try {
    return await verify(stored, secret);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so a wrong name costs as long as a wrong password. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => {
  decoy ??= hashSecret(randomBytes(16).toString('hex'));
  return decoy;
};

/** An opaque bearer token or link token: 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A 6-digit one-time code (spec §9: OTP length 6), leading zeros kept. */
export const newOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
