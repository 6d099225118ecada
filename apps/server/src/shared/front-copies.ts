import { LRUCache } from 'lru-cache';
import type { FastAnswer, FastRequest, KeptCopy } from './fast-path.ts';

/**
 * A front process's copies of the owner's kept answers (front-process.ts). The first GET of a URL asks the owner
 * (`ask`, over IPC); the copy it sends back is sent from here until its `until`, then asked for again. Concurrent
 * first requests share one question. Undefined from `ask` means the owner answers that URL itself: the front hands
 * the connection over.
 *
 * Copies are per compressed form (the rule of encodedBody: br, else gzip, else identity), bounded in bytes, least
 * recently used dropped first.
 */
export interface FrontCopiesOptions {
  ask: (req: FastRequest) => Promise<KeptCopy | undefined>;
  maxBytes?: number;
  now?: () => number;
}

const encodingOf = (acceptEncoding = '') =>
  acceptEncoding.includes('br') ? 'br' : acceptEncoding.includes('gzip') ? 'gzip' : '';

/** If-None-Match against a copy's ETag: the strong comparison, or the weak one (a `W/` prefix ignored). */
export function copyMatches(ifNoneMatch: string | undefined, copy: KeptCopy): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === copy.etag || (copy.weakMatch && t === `W/${copy.etag}`);
  });
}

export class FrontCopies {
  private readonly copies: LRUCache<string, KeptCopy>;
  private readonly asking = new Map<string, Promise<KeptCopy | undefined>>();
  private readonly now: () => number;

  constructor(private readonly opts: FrontCopiesOptions) {
    this.now = opts.now ?? Date.now;
    this.copies = new LRUCache({
      maxSize: opts.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (copy) => (copy.ok.body?.length ?? 0) + 512,
    });
  }

  /** Forgets every copy (the owner's catalogue changed): each URL is asked for again. */
  clear(): void {
    this.copies.clear();
  }

  /** The front's fast path: a copy's answer now, the owner's later, or undefined (hand the connection over). */
  answer(req: FastRequest): FastAnswer | undefined | Promise<FastAnswer | undefined> {
    if (req.method !== 'GET') return undefined;
    const key = `${encodingOf(req.acceptEncoding)} ${req.url}`;
    const copy = this.copies.get(key);
    if (copy && copy.until > this.now()) return this.pick(copy, req);
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.fetch(key, req);
      this.asking.set(key, pending);
    }
    return pending.then((got) => (got ? this.pick(got, req) : undefined));
  }

  private async fetch(key: string, req: FastRequest): Promise<KeptCopy | undefined> {
    try {
      const copy = await this.opts.ask({ ...req, ifNoneMatch: undefined });
      if (copy && copy.until > this.now()) this.copies.set(key, copy);
      else this.copies.delete(key);
      return copy;
    } catch {
      return undefined;
    } finally {
      this.asking.delete(key);
    }
  }

  private pick(copy: KeptCopy, req: FastRequest): FastAnswer {
    return copyMatches(req.ifNoneMatch, copy) ? copy.notModified : copy.ok;
  }
}
