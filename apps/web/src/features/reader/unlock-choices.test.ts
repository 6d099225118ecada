import type { UnlockOptions } from '@yueman/contract';
import { describe, expect, it } from 'vitest';
import { autoUnlockWay, chinaTime, timeLeft, unlockChoices } from './unlock-choices.ts';

const NOW = Date.UTC(2026, 0, 1, 0, 0);
const options = (o: Partial<UnlockOptions> = {}): UnlockOptions => ({
  coins: { price: 10, balance: 5 },
  waitFree: { readyAt: NOW + 6 * 3_600_000, rentalHours: 72 },
  tickets: { usable: 2, nextExpiresAt: NOW + 86_400_000 },
  bundle: null,
  earlyAccess: false,
  ...o,
});

describe('the buy prompt’s choices', () => {
  it('lists the ways in the spending order, a gauge for the wait, coins short of the price', () => {
    const c = unlockChoices(options(), 'ticket_first', NOW, 24 * 60);
    expect(c.map((x) => x.by)).toEqual(['ticket', 'wait_free', 'coins']);
    expect(c[1]).toMatchObject({ ready: false, progress: 0.75 });
    expect(c[2]).toMatchObject({ short: true });
    expect(unlockChoices(options(), 'wait_first', NOW).map((x) => x.by)).toEqual([
      'wait_free',
      'ticket',
      'coins',
    ]);
    // Coins only still shows what else the server offers, after coins.
    expect(unlockChoices(options(), 'coins_only', NOW).map((x) => x.by)).toEqual([
      'coins',
      'ticket',
      'wait_free',
    ]);
  });

  it('leaves out tickets when none is usable and wait-for-free when the chapter has none; the bundle last', () => {
    const c = unlockChoices(
      options({
        tickets: { usable: 0, nextExpiresAt: null },
        waitFree: null,
        bundle: { price: 80, chapters: 10, saves: 20 },
      }),
      'ticket_first',
      NOW,
      60,
    );
    expect(c).toEqual([
      { by: 'coins', price: 10, balance: 5, short: true },
      { by: 'bundle', price: 80, chapters: 10, saves: 20 },
    ]);
  });

  it('auto-buy spends the first usable way of the order, coins when nothing else is', () => {
    expect(autoUnlockWay(options(), 'ticket_first', NOW)).toBe('ticket');
    expect(autoUnlockWay(options(), 'wait_first', NOW)).toBe('ticket');
    const ready = options({ waitFree: { readyAt: NOW, rentalHours: 72 } });
    expect(autoUnlockWay(ready, 'wait_first', NOW)).toBe('wait_free');
    expect(autoUnlockWay(ready, 'coins_only', NOW)).toBe('coins');
    expect(autoUnlockWay(options({ tickets: { usable: 0, nextExpiresAt: null } }), 'ticket_first', NOW)).toBe(
      'coins',
    );
    expect(autoUnlockWay(undefined, 'ticket_first', NOW)).toBe('coins');
  });

  it('words time left and China times', () => {
    expect(timeLeft(NOW + 61 * 60_000, NOW)).toBe('1小时1分');
    expect(timeLeft(NOW + 59_000, NOW)).toBe('1分钟');
    expect(timeLeft(NOW + 50 * 3_600_000, NOW)).toBe('2天2小时');
    expect(timeLeft(NOW - 1, NOW)).toBe('不到1分钟');
    expect(chinaTime(NOW)).toBe('1月1日 08:00');
  });
});
