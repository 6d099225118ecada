import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, entryScriptOf, reloadOnce, reloadReason, whenIdle } from './chunk-load.ts';

/** A Storage in memory, as sessionStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('entryScriptOf', () => {
  it("reads the built index.html's entry script, whatever the order of its attributes", () => {
    const built = `<!doctype html><html><head><script>window.__APP_CONFIG__ = {}</script>
      <script>(() => { const chunks = {}; })();</script>
      <script type="module" crossorigin src="/assets/index-NMaOkLS2.js"></script>
      <link rel="stylesheet" crossorigin href="/assets/index-Bk2MFRQF.css"></head></html>`;
    expect(entryScriptOf(built)).toBe('/assets/index-NMaOkLS2.js');
    expect(entryScriptOf('<script src="/assets/index-a.js" type="module"></script>')).toBe(
      '/assets/index-a.js',
    );
  });

  it('reads the entry the built page starts from its last script (vite.config.ts)', () => {
    const built = `<head><link rel="stylesheet" crossorigin href="/assets/index-Bk2MFRQF.css"></head><body>
      <script>(() => { const start = () => { import("/assets/index-Bf1pEdUo.js"); }; start(); })();</script></body>`;
    expect(entryScriptOf(built)).toBe('/assets/index-Bf1pEdUo.js');
  });

  it('is null for a page without one (an error page, a proxy answering for the site)', () => {
    expect(entryScriptOf('<html><body>502 Bad Gateway</body></html>')).toBeNull();
    expect(entryScriptOf('<script src="/classic.js"></script>')).toBeNull();
  });
});

describe('reloadReason', () => {
  const base = {
    running: '/assets/index-a.js',
    latest: '/assets/index-a.js',
    afterRetry: false,
    path: '/category',
  };

  it('is a new deploy when the index names another entry script', () => {
    expect(reloadReason({ ...base, latest: '/assets/index-b.js' })).toBe('deploy /assets/index-b.js');
    expect(reloadReason({ ...base, latest: '/assets/index-b.js', afterRetry: true })).toBe(
      'deploy /assets/index-b.js',
    );
  });

  it('is nothing on a first failure of the running version: the message and 重试 are enough', () => {
    expect(reloadReason(base)).toBeNull();
    expect(reloadReason({ ...base, latest: null })).toBeNull();
  });

  it('is a stuck import when a retry failed while the site answers with the same version', () => {
    expect(reloadReason({ ...base, afterRetry: true })).toBe('stuck /category');
  });
});

describe('reloadOnce', () => {
  it('reloads once for a reason, never twice in a row for the same one', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnce('deploy /assets/index-b.js', storage, reload)).toBe(true);
    expect(reloadOnce('deploy /assets/index-b.js', storage, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // Another deploy later in the same tab reloads again.
    expect(reloadOnce('deploy /assets/index-c.js', storage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload when it cannot remember having done so (no session storage)', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const reload = vi.fn();
    expect(reloadOnce('deploy x', storage, reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('ChunkLoadError', () => {
  it("keeps the browser's error as its cause and message", () => {
    const cause = new TypeError('Failed to fetch dynamically imported module: /assets/category-page-x.js');
    const err = new ChunkLoadError(cause);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ChunkLoadError');
    expect(err.cause).toBe(cause);
    expect(err.message).toContain('category-page');
  });
});

describe('whenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('uses requestIdleCallback with a time limit, and can be cancelled', () => {
    const requestIdleCallback = vi.fn((_cb: IdleRequestCallback, _opts?: IdleRequestOptions) => 7);
    const cancelIdleCallback = vi.fn();
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    vi.stubGlobal('cancelIdleCallback', cancelIdleCallback);
    const task = vi.fn();
    const cancel = whenIdle(task, 1500);
    expect(requestIdleCallback.mock.calls[0]?.[1]).toEqual({ timeout: 1500 });
    requestIdleCallback.mock.calls[0]?.[0]({ didTimeout: false, timeRemaining: () => 10 });
    expect(task).toHaveBeenCalledTimes(1);
    cancel();
    expect(cancelIdleCallback).toHaveBeenCalledWith(7);
  });

  it('falls back to a short timer where requestIdleCallback is missing (Safari)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const task = vi.fn();
    whenIdle(task);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(task).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    whenIdle(cancelled)();
    vi.advanceTimersByTime(1000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
