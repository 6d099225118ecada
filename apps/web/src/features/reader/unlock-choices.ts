import type { UnlockOptions } from '@yueman/contract';
import { chinaTimeFormat } from '../../lib/china-time.ts';
import { SPEND_ORDERS, type SpendOrder, type SpendWay } from './spend-order.ts';

/** One way the buy prompt offers, in the order it shows them. */
export type UnlockChoice =
  | { by: 'ticket'; usable: number; nextExpiresAt: number | null }
  | { by: 'wait_free'; ready: boolean; readyAt: number; rentalHours: number; progress: number }
  | { by: 'coins'; price: number; balance: number; short: boolean }
  | { by: 'bundle'; price: number; chapters: number; saves: number };

/**
 * The prompt's choices, in the reader's spending order (the ways it leaves out come after, so nothing the server
 * offers is hidden), then the bundle. Tickets show only when one is usable, wait-for-free only when the book has
 * it for this chapter; `waitMinutes` (the book's wait) draws the gauge, 24 hours when unknown; the bundle shows
 * what it saves against buying its chapters one by one, as the server counts it.
 */
export function unlockChoices(
  options: UnlockOptions,
  order: SpendOrder,
  now: number,
  waitMinutes = 24 * 60,
): UnlockChoice[] {
  const ways: SpendWay[] = [...SPEND_ORDERS[order]];
  for (const w of ['ticket', 'wait_free', 'coins'] as const) if (!ways.includes(w)) ways.push(w);
  const out: UnlockChoice[] = [];
  for (const way of ways) {
    if (way === 'ticket' && options.tickets.usable > 0) {
      out.push({ by: 'ticket', ...options.tickets });
    } else if (way === 'wait_free' && options.waitFree) {
      const { readyAt, rentalHours } = options.waitFree;
      const left = Math.max(0, readyAt - now);
      const whole = Math.max(1, waitMinutes * 60_000);
      out.push({
        by: 'wait_free',
        ready: left === 0,
        readyAt,
        rentalHours,
        progress: Math.min(1, Math.max(0, 1 - left / whole)),
      });
    } else if (way === 'coins') {
      const { price, balance } = options.coins;
      out.push({ by: 'coins', price, balance, short: balance < price });
    }
  }
  if (options.bundle) out.push({ by: 'bundle', ...options.bundle });
  return out;
}

/** What auto-buy spends on, following the reader's order: the first usable way (coins last, even when short). */
export function autoUnlockWay(options: UnlockOptions | undefined, order: SpendOrder, now: number): SpendWay {
  if (!options) return 'coins';
  for (const way of SPEND_ORDERS[order]) {
    if (way === 'ticket' && options.tickets.usable > 0) return 'ticket';
    if (way === 'wait_free' && options.waitFree && options.waitFree.readyAt <= now) return 'wait_free';
  }
  return 'coins';
}

/** "3小时5分", "12分钟", "不到1分钟": the time left until `at`. */
export function timeLeft(at: number, now: number): string {
  const minutes = Math.ceil((at - now) / 60_000);
  if (minutes <= 0) return '不到1分钟';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days}天${hours > 0 ? `${hours}小时` : ''}`;
  if (hours > 0) return `${hours}小时${mins > 0 ? `${mins}分` : ''}`;
  return `${mins}分钟`;
}

const chinaDay = chinaTimeFormat({
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
/** "12月3日 08:00" in China time. */
export const chinaTime = (ms: number) => chinaDay().format(ms).replace(/\//, '月').replace(/\s/, '日 ');
