import type { PayConfig, PaySubType } from '@yueman/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { discountLabel, payAmount, returnPath, safeGoUrl, yuan } from './pay-helpers.ts';

const pack = (amountLevel: number) => ({ amountLevel }) as PayConfig;
const channel = (discount: number) => ({ discount }) as PaySubType;

describe('what the payer pays', () => {
  it('is the pack price times the discount as shown (9.5 is 9.5折), in cents, half up', () => {
    expect(payAmount(pack(3000), channel(9.5))).toBe(2850);
    expect(payAmount(pack(1999), channel(9.5))).toBe(1899); // 1899.05
    expect(payAmount(pack(999), channel(8.8))).toBe(879); // 879.12
    expect(payAmount(pack(10), channel(9.5))).toBe(10); // 9.5 rounds up
    expect(payAmount(pack(100), channel(1.15))).toBe(12); // 11.5, where 100 * 0.115 floats to 11.4999…
    expect(payAmount(pack(4990), channel(9.9))).toBe(4940); // 4940.1
  });

  it('is the full price without a discount (0, 10 or more)', () => {
    expect(payAmount(pack(3000), channel(0))).toBe(3000);
    expect(payAmount(pack(3000), channel(10))).toBe(3000);
    expect(payAmount(pack(3000), channel(12))).toBe(3000);
  });

  it('labels a discount as N折 and no discount as nothing', () => {
    expect(discountLabel(9.5)).toBe('9.5折');
    expect(discountLabel(8)).toBe('8折');
    expect(discountLabel(10)).toBe('');
    expect(discountLabel(0)).toBe('');
  });

  it('shows cents as yuan: whole yuan bare, else two decimals', () => {
    expect(yuan(3000)).toBe('30');
    expect(yuan(2850)).toBe('28.50');
    expect(yuan(1999)).toBe('19.99');
    expect(yuan(1)).toBe('0.01');
    expect(yuan(0)).toBe('0');
  });
});

describe('where the gateway returns the reader (vueReturnUrl)', () => {
  const from = (query: string) => returnPath(new URLSearchParams(query));

  it('is the chapter, else the book, else the account centre', () => {
    expect(from('bookId=12&number=3')).toBe('/book/read/12/3');
    expect(from('bookId=12')).toBe('/book/12');
    expect(from('')).toBe('/user');
  });

  it('is always the account centre inside WeChat, where reading is sent out to the browser', () => {
    expect(returnPath(new URLSearchParams('bookId=12&number=3'), true)).toBe('/user');
  });

  it('takes only positive whole numbers from the address', () => {
    expect(from('bookId=12&number=0')).toBe('/book/12');
    expect(from('bookId=12&number=javascript:alert(1)')).toBe('/book/12');
    for (const bookId of ['//evil.example', '/\\evil.example', '0', '-3', '1e3', '12.5', '1234567890']) {
      expect(from(`bookId=${encodeURIComponent(bookId)}&number=3`), bookId).toBe('/user');
    }
  });
});

describe('the cashier address the pay page frames (goUrl)', () => {
  beforeEach(() => {
    vi.stubGlobal('location', new URL('https://yueman.example/user/purchase/pay'));
    runtimeConfig.dynamicApiBase = 'https://api.yueman.example';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    runtimeConfig.dynamicApiBase = '';
  });

  it('is this site or the dynamic API host (where the cashier is)', () => {
    expect(safeGoUrl('https://api.yueman.example/sandbox-pay/cashier?order=YM1')).toBe(
      'https://api.yueman.example/sandbox-pay/cashier?order=YM1',
    );
    expect(safeGoUrl('/sandbox-pay/cashier?order=YM1')).toBe(
      'https://yueman.example/sandbox-pay/cashier?order=YM1',
    );
  });

  it('refuses any other address', () => {
    for (const hostile of [
      '//evil.example/cashier',
      '/\\evil.example',
      'https://evil.example/',
      'https://api.yueman.example.evil.example/',
      'https://user:pw@yueman.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '',
      null,
    ]) {
      expect(safeGoUrl(hostile), String(hostile)).toBeNull();
    }
  });
});
