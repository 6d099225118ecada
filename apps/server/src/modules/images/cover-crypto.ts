import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Covers travel as text: base64 of IV (12 bytes) || AES-256-GCM ciphertext || tag (16 bytes), under the
 * key the runtime config hands to the web app (docs/api.md section 5). The web app decrypts it with
 * Web Crypto, whose AES-GCM `decrypt` expects exactly ciphertext || tag after the IV.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error(`cover key must be 32 bytes, got ${key.length}`);
}

export function encryptCover(bytes: Buffer, key: Buffer): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

/** Throws when the text was not made under this key or was altered. */
export function decryptCover(text: string, key: Buffer): Buffer {
  checkKey(key);
  const all = Buffer.from(text, 'base64');
  if (all.length < IV_BYTES + TAG_BYTES) throw new Error('cover text is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, all.subarray(0, IV_BYTES));
  decipher.setAuthTag(all.subarray(all.length - TAG_BYTES));
  return Buffer.concat([decipher.update(all.subarray(IV_BYTES, all.length - TAG_BYTES)), decipher.final()]);
}
