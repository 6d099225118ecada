import { createCipheriv, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coverObjectUrl, decryptCover, importCoverKey } from './images.ts';

// As the server encrypts a cover (apps/server/src/modules/images/cover-crypto.ts): base64 of a 12-byte IV, the
// AES-256-GCM ciphertext and the 16-byte tag.
function encryptAsServer(plain: Buffer, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

const keyBytes = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const webp = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), randomBytes(300)]);

describe('cover decryption', () => {
  it('gives back the bytes the server encrypted, with the key as the runtime config carries it (hex)', async () => {
    const key = await importCoverKey(keyBytes.toString('hex'));
    const plain = await decryptCover(encryptAsServer(webp, keyBytes), key);
    expect(Buffer.from(plain).equals(webp)).toBe(true);
  });

  it('decrypts an empty cover and a large one alike', async () => {
    const key = await importCoverKey(keyBytes.toString('hex'));
    const large = randomBytes(200_000);
    expect((await decryptCover(encryptAsServer(Buffer.alloc(0), keyBytes), key)).byteLength).toBe(0);
    expect(Buffer.from(await decryptCover(encryptAsServer(large, keyBytes), key)).equals(large)).toBe(true);
  });

  it('refuses a cover made under another key', async () => {
    const key = await importCoverKey(keyBytes.toString('hex'));
    const other = randomBytes(32);
    await expect(decryptCover(encryptAsServer(webp, other), key)).rejects.toThrow();
  });

  it('refuses a cover altered on the way (one flipped bit in the ciphertext)', async () => {
    const key = await importCoverKey(keyBytes.toString('hex'));
    const raw = Buffer.from(encryptAsServer(webp, keyBytes), 'base64');
    raw[20] = (raw[20] ?? 0) ^ 1;
    await expect(decryptCover(raw.toString('base64'), key)).rejects.toThrow();
  });
});

describe('cover fetches', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('start one per task, none in the task that asked: a screen mounting a dozen covers makes no long task of it', async () => {
    vi.stubGlobal('window', {});
    let started = 0;
    let sameTask = false;
    let busy = false;
    vi.stubGlobal('fetch', async () => {
      started++;
      // Two fetches started before the microtasks of a task ran: the same task.
      if (busy) sameTask = true;
      busy = true;
      queueMicrotask(() => {
        busy = false;
      });
      return new Response(null, { status: 204 });
    });
    const covers = ['a', 'b', 'c', 'd'].map((name) => coverObjectUrl(`covers/turns/${name}`, 200));
    expect(started).toBe(0);
    // 204: no cover, the placeholder shows.
    expect(await Promise.all(covers)).toEqual([null, null, null, null]);
    expect(started).toBe(4);
    expect(sameTask).toBe(false);
  });
});
