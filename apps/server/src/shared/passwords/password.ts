import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Readable by a person copying it from a screen: no 0/O, 1/l/I.
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';

export function generatePassword(length = 12): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Account names: 'yd' and 8 digits, easy to read aloud to customer service. */
export function generateAccount(): string {
  return `yd${randomInt(10_000_000, 100_000_000)}`;
}

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane), the defaults of @node-rs/argon2.
 * The PHC string carries its parameters, so raising them later keeps old hashes verifiable.
 */
export const hashPassword = (password: string) =>
  hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });

export const verifyPassword = (stored: string, password: string) =>
  verify(stored, password).catch(() => false);
