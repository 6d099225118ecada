import { LRUCache } from 'lru-cache';

/** A ready answer: headers built once; `body` absent for large images, which stream from the store's `storeKey`. */
export interface Answer {
  headers: Record<string, string>;
  etag: string;
  body?: Buffer;
  storeKey: string;
}

export interface AnswerCache {
  get(key: string): Answer | undefined;
  /** Keeps `answer`; its body only when it fits `itemBytes` or cannot be streamed from the store. */
  set(key: string, answer: Answer, streamable: boolean): void;
  delete(key: string): void;
  /** The bytes kept now (bodies and OVERHEAD_BYTES each), at most `totalBytes`. */
  bytes(): number;
}

export interface AnswerCacheLimits {
  totalBytes: number;
  itemBytes: number;
}

/** Headers, key and bookkeeping, counted so that body-less answers still use up the budget. */
const OVERHEAD_BYTES = 256;

/**
 * The answers to recent image URLs, least recently used dropped first once they pass `totalBytes`; an answer
 * larger than that is not kept at all.
 */
export function createAnswerCache({ totalBytes, itemBytes }: AnswerCacheLimits): AnswerCache {
  // IMAGE_MEMORY_CACHE_MB=0: nothing is kept (every answer is read from the store).
  if (totalBytes <= 0) return { get: () => undefined, set() {}, delete() {}, bytes: () => 0 };
  const cache = new LRUCache<string, Answer>({
    maxSize: totalBytes,
    sizeCalculation: (answer) => (answer.body?.length ?? 0) + OVERHEAD_BYTES,
  });
  return {
    get: (key) => cache.get(key),
    set(key, answer, streamable) {
      const { body, ...bodiless } = answer;
      cache.set(key, body && streamable && body.length > itemBytes ? bodiless : answer);
    },
    delete: (key) => void cache.delete(key),
    bytes: () => cache.calculatedSize,
  };
}
