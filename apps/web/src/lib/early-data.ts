import type { Envelope } from './api-client.ts';

declare global {
  interface Window {
    /** A static call that index.html started before the scripts loaded (the landing screens). */
    __YM_EARLY__?: { path: string; answer: Promise<Envelope<unknown>> };
  }
}

/** The data of that early call if it was for `path` and succeeded, once; otherwise undefined. */
export async function takeEarly<T>(path: string): Promise<T | undefined> {
  const early = window.__YM_EARLY__;
  if (!early || early.path !== path) return undefined;
  window.__YM_EARLY__ = undefined;
  const body = await early.answer.catch(() => undefined);
  return body?.result ? (body.data as T) : undefined;
}
