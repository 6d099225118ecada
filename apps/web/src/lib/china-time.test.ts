import { afterEach, describe, expect, it, vi } from 'vitest';
import { chinaTimeFormat } from './china-time.ts';

describe('chinaTimeFormat', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes its formatter on first use, once, and formats in China time whatever the zone of the device', () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    const format = chinaTimeFormat({ hour: '2-digit', minute: '2-digit', hour12: false }, 'en-GB');
    expect(made).not.toHaveBeenCalled();
    // 16:30 UTC is half past midnight in China (UTC+8).
    expect(format().format(Date.UTC(2026, 0, 1, 16, 30))).toBe('00:30');
    expect(format()).toBe(format());
    expect(made).toHaveBeenCalledTimes(1);
  });

  it('keeps China time even when the options name another zone', () => {
    const format = chinaTimeFormat({ timeZone: 'UTC', hour: '2-digit', hour12: false }, 'en-GB');
    expect(format().resolvedOptions().timeZone).toBe('Asia/Shanghai');
  });
});
