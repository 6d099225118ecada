import type { ChapterItem } from '@yueman/contract';

export const priceLabel = (price: number) => (price === 0 ? '免费' : `${price}阅币`);

/** One mark of the chapter list: its words and its look (book.css chapter-tag-{kind}). */
export interface ChapterMark {
  text: string;
  kind: 'free' | 'limited' | 'price' | 'bought' | 'rented' | 'early' | 'wait' | 'ticket';
}

/** "3小时", "25分钟", "71小时", "5天": a rental's or a wait's time left, short enough for a tag. */
export function shortLeft(at: number, now: number): string {
  const minutes = Math.max(1, Math.ceil((at - now) / 60_000));
  if (minutes < 60) return `${minutes}分钟`;
  // A rental (72 hours by default) counts down in hours, so two rented together read alike.
  if (minutes < 96 * 60) return `${Math.floor(minutes / 60)}小时`;
  return `${Math.floor(minutes / 1440)}天`;
}

/**
 * What the chapter list marks (docs/product.md): 免费; 限免 with the time left of the campaign; 已购; 租借中 with the
 * time left; for a locked chapter its
 * price, 抢先 (early access), 等免 (ready, or the time left) and 券 (a usable ticket opens it). The server's
 * chapter list decides each (docs/api.md); this only words them.
 */
export function chapterMarks(c: ChapterItem, now: number): ChapterMark[] {
  if (c.price === 0) return [{ text: '免费', kind: 'free' }];
  if (c.alreadyBuy) {
    if (c.unlockSource === 'limited_free' && c.unlockEndsAt)
      return [{ text: `限免 ${shortLeft(c.unlockEndsAt, now)}`, kind: 'limited' }];
    if (c.unlockEndsAt) return [{ text: `租借中 ${shortLeft(c.unlockEndsAt, now)}`, kind: 'rented' }];
    return [{ text: c.unlockSource === 'ticket' ? '已解锁' : '已购', kind: 'bought' }];
  }
  const marks: ChapterMark[] = [];
  if (c.earlyAccess) marks.push({ text: '抢先', kind: 'early' });
  if (c.waitFreeReadyAt !== undefined) {
    const ready = c.waitFreeReadyAt <= now;
    marks.push({ text: ready ? '等免' : `等免 ${shortLeft(c.waitFreeReadyAt, now)}`, kind: 'wait' });
  }
  if (c.ticketable) marks.push({ text: '券', kind: 'ticket' });
  marks.push({ text: priceLabel(c.price), kind: 'price' });
  return marks;
}

/** "每24小时", "每90分钟", "每1分钟": how often wait-for-free opens one chapter. */
export function waitEvery(minutes: number): string {
  return minutes % 60 === 0 ? `每${minutes / 60}小时` : `每${minutes}分钟`;
}

/**
 * When the reader's next wait-for-free chapter is ready: the soonest readyAt of the locked chapters the list marks
 * 等免 (the same for all of them: the wait is per book); null when none is left to unlock that way.
 */
export function nextWaitFree(chapters: ChapterItem[] | undefined): number | null {
  let soonest: number | null = null;
  for (const c of chapters ?? []) {
    if (c.waitFreeReadyAt !== undefined && (soonest === null || c.waitFreeReadyAt < soonest))
      soonest = c.waitFreeReadyAt;
  }
  return soonest;
}
