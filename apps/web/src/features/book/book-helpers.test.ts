import type { ChapterItem } from '@yueman/contract';
import { describe, expect, it } from 'vitest';
import { chapterMarks, shortLeft } from './book-helpers.ts';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const chapter = (c: Partial<ChapterItem>): ChapterItem => ({
  bookId: 1,
  number: 2,
  title: '第2话',
  cover: '',
  price: 10,
  chapterId: 2,
  alreadyBuy: false,
  ...c,
});
const texts = (c: Partial<ChapterItem>) => chapterMarks(chapter(c), NOW).map((m) => m.text);

describe('the chapter list’s marks', () => {
  it('marks free, bought and rented chapters by what the reader holds', () => {
    expect(texts({ price: 0 })).toEqual(['免费']);
    expect(texts({ alreadyBuy: true })).toEqual(['已购']);
    expect(texts({ alreadyBuy: true, unlockSource: 'bought', unlockEndsAt: null })).toEqual(['已购']);
    expect(texts({ alreadyBuy: true, unlockSource: 'wait_free', unlockEndsAt: NOW + 71.5 * HOUR })).toEqual([
      '租借中 71小时',
    ]);
    expect(texts({ alreadyBuy: true, unlockSource: 'ticket', unlockEndsAt: NOW + 5 * HOUR })).toEqual([
      '租借中 5小时',
    ]);
    expect(texts({ alreadyBuy: true, unlockSource: 'ticket', unlockEndsAt: null })).toEqual(['已解锁']);
    expect(
      texts({ alreadyBuy: true, unlockSource: 'limited_free', unlockEndsAt: NOW + 45 * 60_000 }),
    ).toEqual(['限免 45分钟']);
  });

  it('marks a locked chapter: early access, wait-for-free ready or not, a ticket, and its price', () => {
    expect(texts({})).toEqual(['10阅币']);
    expect(texts({ earlyAccess: true, ticketable: true })).toEqual(['抢先', '券', '10阅币']);
    expect(texts({ waitFreeReadyAt: NOW - 1 })).toEqual(['等免', '10阅币']);
    expect(texts({ waitFreeReadyAt: NOW + 30 * 60_000, ticketable: true })).toEqual([
      '等免 30分钟',
      '券',
      '10阅币',
    ]);
  });

  it('words the time left short', () => {
    expect(shortLeft(NOW + 1000, NOW)).toBe('1分钟');
    expect(shortLeft(NOW + 47 * HOUR, NOW)).toBe('47小时');
    expect(shortLeft(NOW + 72 * HOUR, NOW)).toBe('72小时');
    expect(shortLeft(NOW + 5 * 24 * HOUR, NOW)).toBe('5天');
  });
});

describe('the detail page’s wait-for-free line', () => {
  it('says how often and when the next is ready', async () => {
    const { waitEvery, nextWaitFree } = await import('./book-helpers.ts');
    expect(waitEvery(1440)).toBe('每24小时');
    expect(waitEvery(90)).toBe('每90分钟');
    expect(waitEvery(1)).toBe('每1分钟');
    expect(nextWaitFree([chapter({ waitFreeReadyAt: NOW + 5 }), chapter({ waitFreeReadyAt: NOW + 2 })])).toBe(
      NOW + 2,
    );
    expect(nextWaitFree([chapter({ alreadyBuy: true })])).toBeNull();
    expect(nextWaitFree(undefined)).toBeNull();
  });
});
