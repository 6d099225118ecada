import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { clampSpeed, DEFAULT_SPEED } from './auto-scroll-speed.ts';
import { DEFAULT_SPEND_ORDER, isSpendOrder, type SpendOrder } from './spend-order.ts';

/** The reader's settings sheet (设置), kept on this device (docs/product.md section 7, `ym-reader-settings`). */
export interface ReaderSettings {
  /** 自动滚动: chapters scroll by themselves (started from the sheet; on opening a chapter unless motion is reduced). */
  autoScroll: boolean;
  /** The auto-scroll speed step, 1 to SPEED_STEPS (auto-scroll.ts). */
  speed: number;
  /** 页面间隙: a small gap between pages; off (pages touch) is the reader's usual look. */
  gaps: boolean;
  /** 夜间模式: a black reader with dimmed pages. */
  night: boolean;
  /** 解锁顺序: what auto-buy spends first on a locked chapter (tickets, then wait-for-free, then coins by default). */
  spendOrder: SpendOrder;
}

interface ReaderSettingsState extends ReaderSettings {
  setAutoScroll(on: boolean): void;
  setSpeed(step: number): void;
  setGaps(on: boolean): void;
  setNight(on: boolean): void;
  setSpendOrder(order: SpendOrder): void;
}

export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  autoScroll: false,
  speed: DEFAULT_SPEED,
  gaps: false,
  night: false,
  spendOrder: DEFAULT_SPEND_ORDER,
};

/** What was stored, value by value: a missing or malformed value (an older app, a hand edit) is the default. */
export function storedSettings(stored: unknown): ReaderSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<
    Record<keyof ReaderSettings, unknown>
  >;
  const flag = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
  const d = DEFAULT_READER_SETTINGS;
  return {
    autoScroll: flag(s.autoScroll, d.autoScroll),
    speed: s.speed === undefined ? d.speed : clampSpeed(s.speed),
    gaps: flag(s.gaps, d.gaps),
    night: flag(s.night, d.night),
    spendOrder: isSpendOrder(s.spendOrder) ? s.spendOrder : d.spendOrder,
  };
}

export const useReaderSettings = create<ReaderSettingsState>()(
  persist(
    (set) => ({
      ...DEFAULT_READER_SETTINGS,
      setAutoScroll: (autoScroll) => set({ autoScroll }),
      setSpeed: (step) => set({ speed: clampSpeed(step) }),
      setGaps: (gaps) => set({ gaps }),
      setNight: (night) => set({ night }),
      setSpendOrder: (spendOrder) => set({ spendOrder }),
    }),
    {
      name: 'ym-reader-settings',
      // Only the values are stored; reading them back checks each one.
      partialize: ({ autoScroll, speed, gaps, night, spendOrder }): ReaderSettings => ({
        autoScroll,
        speed,
        gaps,
        night,
        spendOrder,
      }),
      merge: (stored, current) => ({ ...current, ...storedSettings(stored) }),
    },
  ),
);
