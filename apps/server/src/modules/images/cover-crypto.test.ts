import { randomBytes, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptCover, encryptCover } from './cover-crypto.ts';

describe('cover encryption', () => {
  const key = randomBytes(32);
  const bytes = randomBytes(5000);

  it('round-trips and uses a fresh IV each time', () => {
    const a = encryptCover(bytes, key);
    const b = encryptCover(bytes, key);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').length).toBe(12 + bytes.length + 16);
    expect(decryptCover(a, key).equals(bytes)).toBe(true);
  });

  it('refuses another key and altered text', () => {
    const text = encryptCover(bytes, key);
    expect(() => decryptCover(text, randomBytes(32))).toThrow();
    const raw = Buffer.from(text, 'base64');
    raw[20] = (raw[20] ?? 0) ^ 1;
    expect(() => decryptCover(raw.toString('base64'), key)).toThrow();
    expect(() => encryptCover(bytes, randomBytes(16))).toThrow(/32 bytes/);
  });

  it('is what Web Crypto in the browser decrypts', async () => {
    const raw = Buffer.from(encryptCover(bytes, key), 'base64');
    const cryptoKey = await webcrypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    const plain = await webcrypto.subtle.decrypt(
      { name: 'AES-GCM', iv: raw.subarray(0, 12) },
      cryptoKey,
      raw.subarray(12),
    );
    expect(Buffer.from(plain).equals(bytes)).toBe(true);
  });
});
