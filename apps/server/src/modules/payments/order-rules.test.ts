import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../sandbox/sandbox.notifier.ts';
import { readFields, signatureMatches, signedNotification } from '../sandbox/sandbox-signing.ts';
import {
  clientOf,
  discountOf,
  newOrderNo,
  payAmountAt as payAmountOf,
  safeReturnUrl,
} from './order-rules.ts';

describe('order rules', () => {
  it('pays the pack price times the discount, rounded to the cent half up, in integers', () => {
    expect(payAmountOf(3000, 95)).toBe(2850);
    expect(payAmountOf(3000, 100)).toBe(3000);
    expect(payAmountOf(10, 95)).toBe(10); // 9.5 -> 10
    expect(payAmountOf(30, 98)).toBe(29); // 29.4 -> 29
    expect(payAmountOf(19800, 95)).toBe(18810);
    expect(payAmountOf(1, 1)).toBe(0); // never offered: pack and channel CHECKs keep amounts sensible
    expect(discountOf(95)).toBe(9.5);
    expect(discountOf(100)).toBe(10);
  });

  it('keeps return addresses on the public origin and sends everything else home', () => {
    const origin = 'https://m.example.com';
    expect(safeReturnUrl('/user?paid=1', origin)).toBe('https://m.example.com/user?paid=1');
    expect(safeReturnUrl('https://m.example.com/home', origin)).toBe('https://m.example.com/home');
    expect(safeReturnUrl('https://M.EXAMPLE.COM:443/shelf', origin)).toBe('https://m.example.com/shelf');
    for (const evil of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'http://m.example.com/home', // another scheme is another origin
      'https://m.example.com.evil.example/',
      'https://m.example.com@evil.example/',
      ' //evil.example',
    ]) {
      expect(safeReturnUrl(evil, origin), evil).toBe('https://m.example.com/home');
    }
    expect(safeReturnUrl(undefined, origin)).toBe('https://m.example.com/home');
    expect(safeReturnUrl('', origin)).toBe('https://m.example.com/home');
  });

  it('numbers orders YM, China date, 16 random hex digits', () => {
    // 2024-12-31 20:00 UTC is 2025-01-01 04:00 in China.
    expect(newOrderNo(new Date('2024-12-31T20:00:00Z'))).toMatch(/^YM20250101[0-9A-F]{16}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newOrderNo())).size).toBe(1000);
  });

  it('tells web clients from app shells', () => {
    expect(['wap_browser', 'other', 'shell', 'ios_desk'].map(clientOf)).toEqual(['web', 'web', 'app', 'app']);
  });
});

describe('sandbox notification signing', () => {
  const key = randomBytes(32);
  const payment = {
    orderNo: 'YM20250101ABCDEF0123456789',
    tradeNo: 'SB0123456789ABCDEF01234567',
    amount: 2850,
    merchantId: 'ym-sandbox',
  };

  it('signs each delivery afresh and verifies only with the same key and fields', () => {
    const a = Object.fromEntries(new URLSearchParams(signedNotification(key, payment, new Date())));
    const b = Object.fromEntries(new URLSearchParams(signedNotification(key, payment, new Date())));
    expect(a.nonce).not.toBe(b.nonce);
    const read = readFields(a);
    if (typeof read === 'string') throw new Error(read);
    expect(signatureMatches(key, read.fields, read.sign)).toBe(true);
    expect(signatureMatches(randomBytes(32), read.fields, read.sign)).toBe(false);
    expect(signatureMatches(key, { ...read.fields, amount: '1' }, read.sign)).toBe(false);
    expect(signatureMatches(key, read.fields, read.sign.slice(0, 63))).toBe(false);
    expect(signatureMatches(key, read.fields, read.sign.toUpperCase())).toBe(false);
    expect(readFields({ ...a, amount: '28.50' })).toContain('amount');
    expect(readFields({ ...a, orderNo: 'YM&amount=1' })).toContain('orderNo');
  });

  it('backs off 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, then hourly', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(retryDelayMs)).toEqual([
      1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});
