import { runtimeConfig } from './runtime-config.ts';

export type ImageWidth = 180 | 200 | 500 | 1000;

/** `{imageBase}/{path}_{width}_0.img` (docs/api.md section 5). */
export const imageUrl = (path: string, width: ImageWidth) =>
  `${runtimeConfig.imageBase}/${path}_${width}_0.img`;

/** The runtime config's cover key (64 hex characters) as an AES-GCM key for decrypting. */
export const importCoverKey = (hex: string) =>
  crypto.subtle.importKey(
    'raw',
    new Uint8Array((hex.match(/../g) ?? []).map((h) => Number.parseInt(h, 16))),
    'AES-GCM',
    false,
    ['decrypt'],
  );

let keyPromise: Promise<CryptoKey> | undefined;
const coverKey = () => {
  keyPromise ??= importCoverKey(runtimeConfig.coverKey);
  return keyPromise;
};

const covers = new Map<string, Promise<string | null>>();

declare global {
  interface Window {
    /** The book page's wide cover, which index.html fetched and decrypted to paint before the scripts arrived. */
    __YM_COVER__?: { url: string; objectUrl: Promise<string | null> };
  }
}

/** That cover when it is this one, once: the screen shows the very picture already painted, with no second fetch. */
function takeEarlyCover(url: string): Promise<string | null> | undefined {
  const early = window.__YM_COVER__;
  if (early?.url !== url) return undefined;
  window.__YM_COVER__ = undefined;
  return early.objectUrl;
}

/**
 * Base64 to bytes. `Uint8Array.from(atob(text), mapFn)` cost about 10 ms a cover on a slow phone (a function
 * call per byte), a plain loop a fraction of that; newer browsers decode natively.
 */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const U8 = Uint8Array as typeof Uint8Array & { fromBase64?(s: string): Uint8Array<ArrayBuffer> };
  if (U8.fromBase64) return U8.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A cover's text as the server sends it, base64 of a 12-byte IV, then the AES-256-GCM ciphertext and tag of the
 * WebP, back to the WebP's bytes. Rejects when the text was not made under this key or was altered.
 */
export async function decryptCover(text: string, key: CryptoKey): Promise<ArrayBuffer> {
  const raw = fromBase64(text);
  return crypto.subtle.decrypt({ name: 'AES-GCM', iv: raw.slice(0, 12) }, key, raw.slice(12));
}

/**
 * Cover fetches start one per task. A screen's first render mounts a dozen covers at once, and starting every
 * fetch in the same task (React's effects of one commit) made one long task of it on a slow phone: each fetch()
 * call costs the main thread about a millisecond there, several at 4x CPU (bench/README.md, Lighthouse). A
 * message-channel task, not a timer: no 4 ms clamp, and no throttling in a background tab.
 */
const turns: (() => void)[] = [];
let turnChannel: MessageChannel | undefined;
function inTurn<T>(start: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    turns.push(() => start().then(resolve, reject));
    if (turns.length > 1) return;
    if (!turnChannel) {
      turnChannel = new MessageChannel();
      turnChannel.port1.onmessage = () => {
        turns.shift()?.();
        if (turns.length) turnChannel?.port2.postMessage(null);
      };
    }
    turnChannel.port2.postMessage(null);
  });
}

/**
 * A cover, fetched as text and decrypted (decryptCover). Resolves to an object URL, or null when the server has
 * no cover (204) and the placeholder shows.
 */
export function coverObjectUrl(path: string, width: ImageWidth): Promise<string | null> {
  const key = `${width}/${path}`;
  let pending = covers.get(key);
  if (!pending) {
    const url = imageUrl(path, width);
    const early = takeEarlyCover(url);
    pending = (async () => {
      // The early one failed or found nothing (204): asked again here, as any cover.
      const painted = early && (await early);
      if (painted) return painted;
      const res = await inTurn(() => fetch(url));
      if (res.status === 204 || !res.ok) return null;
      const plain = await decryptCover(await res.text(), await coverKey());
      return URL.createObjectURL(new Blob([plain], { type: 'image/webp' }));
    })().catch(() => null);
    covers.set(key, pending);
  }
  return pending;
}
