import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A localStorage of our own: the web tests run in node, and the store reads storage when it is created. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

/** The store module as the app loads it, on a device whose storage holds `initial`. */
async function loadStore(initial: Record<string, string> = {}) {
  const storage = memoryStorage(initial);
  // zustand's default storage is window.localStorage.
  vi.stubGlobal('window', { localStorage: storage });
  vi.stubGlobal('localStorage', storage);
  vi.resetModules();
  const mod = await import('./reader-settings-store.ts');
  return { ...mod, storage };
}

const KEY = 'ym-reader-settings';

describe('reader settings store', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it("starts with today's reader: no auto-scroll, the middle speed, no gaps, no night mode, tickets first", async () => {
    const { useReaderSettings, DEFAULT_READER_SETTINGS } = await loadStore();
    const { autoScroll, speed, gaps, night, spendOrder } = useReaderSettings.getState();
    expect({ autoScroll, speed, gaps, night, spendOrder }).toEqual(DEFAULT_READER_SETTINGS);
    expect(DEFAULT_READER_SETTINGS).toEqual({
      autoScroll: false,
      speed: 3,
      gaps: false,
      night: false,
      spendOrder: 'ticket_first',
    });
  });

  it('keeps every change in local storage under ym-reader-settings, values only, as the other stores do', async () => {
    const { useReaderSettings, storage } = await loadStore();
    const s = useReaderSettings.getState();
    s.setNight(true);
    s.setGaps(true);
    s.setAutoScroll(true);
    s.setSpeed(5);
    s.setSpendOrder('wait_first');
    expect(JSON.parse(storage.getItem(KEY) ?? 'null')).toEqual({
      state: { autoScroll: true, speed: 5, gaps: true, night: true, spendOrder: 'wait_first' },
      version: 0,
    });
  });

  it('keeps the speed a whole step between 1 and 5', async () => {
    const { useReaderSettings } = await loadStore();
    useReaderSettings.getState().setSpeed(12);
    expect(useReaderSettings.getState().speed).toBe(5);
    useReaderSettings.getState().setSpeed(0);
    expect(useReaderSettings.getState().speed).toBe(1);
  });

  it('reads the settings back on the next visit', async () => {
    const stored = { state: { autoScroll: true, speed: 2, gaps: true, night: true }, version: 0 };
    const { useReaderSettings } = await loadStore({ [KEY]: JSON.stringify(stored) });
    const { autoScroll, speed, gaps, night } = useReaderSettings.getState();
    expect({ autoScroll, speed, gaps, night }).toEqual(stored.state);
  });

  it('takes the default for a stored value that is missing or malformed', async () => {
    const stored = {
      state: { autoScroll: 'yes', speed: 40, night: true, extra: 1, spendOrder: 'gold_first' },
      version: 0,
    };
    const { useReaderSettings } = await loadStore({ [KEY]: JSON.stringify(stored) });
    const { autoScroll, speed, gaps, night } = useReaderSettings.getState();
    expect({ autoScroll, speed, gaps, night }).toEqual({
      autoScroll: false,
      speed: 5,
      gaps: false,
      night: true,
    });
    expect(useReaderSettings.getState()).not.toHaveProperty('extra');
    expect(useReaderSettings.getState().spendOrder).toBe('ticket_first');
    // The actions survive the merge.
    expect(typeof useReaderSettings.getState().setNight).toBe('function');
  });

  it('storedSettings copes with no stored state at all', async () => {
    const { storedSettings, DEFAULT_READER_SETTINGS } = await loadStore();
    expect(storedSettings(undefined)).toEqual(DEFAULT_READER_SETTINGS);
    expect(storedSettings('junk')).toEqual(DEFAULT_READER_SETTINGS);
  });
});
