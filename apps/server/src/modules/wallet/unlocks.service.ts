import type { BundleUnlock, ReadingTicket, Unlock, UnlockBy } from '@yueman/contract';
import { paymentNeeded } from '../../shared/errors.ts';
import { accountBlocked } from '../../shared/signed-in.ts';
import type { UnlocksRepository } from './unlocks.repository.ts';
import { chapterNotFound } from './wallet.errors.ts';

export interface UnlocksDeps {
  repo: UnlocksRepository;
}

/** Why an unlock was refused, as the reader reads it (code 999, with what the chapter offers). */
const REFUSALS = {
  short: '阅币不足，请先充值',
  no_wait_free: '本书暂未开启等就免费',
  early_access: '抢先看章节仅支持阅币或抢先券解锁',
  waiting: '等待时间未到，请稍后再来免费解锁',
  no_ticket: '没有可用的阅读券',
  no_bundle: '本书暂不支持打包购买',
  nothing_left: '本书已没有可打包购买的章节',
} as const;

/**
 * Unlocks a priced chapter for the signed-in reader by the way they chose. A chapter already
 * held answers what holds it and changes nothing; a refusal answers code 999 with the chapter's unlockOptions.
 */
export async function unlockChapter(
  { repo }: UnlocksDeps,
  p: { userId: number; blocked?: boolean; bookId: number; chapterId: number; by: UnlockBy },
): Promise<Unlock | BundleUnlock> {
  if (p.blocked) throw accountBlocked();
  const refuse = async (msg: string) => {
    const options = await repo.options(p.userId, p.chapterId);
    return paymentNeeded(msg, options ?? null);
  };
  if (p.by === 'bundle') {
    const done = await repo.bundle({ userId: p.userId, bookId: p.bookId, chapterId: p.chapterId });
    if (done.outcome === 'no_chapter') throw chapterNotFound();
    if (done.outcome !== 'bought') throw await refuse(REFUSALS[done.outcome]);
    return {
      list: done.chapterIds.map((chapterId) => ({ chapterId, source: 'bought', endsAt: null })),
      price: done.price,
      saves: done.saves,
    };
  }
  const done = await repo.unlock({ userId: p.userId, bookId: p.bookId, chapterId: p.chapterId, by: p.by });
  switch (done.outcome) {
    case 'no_chapter':
      throw chapterNotFound();
    case 'not_priced':
      return { chapterId: p.chapterId, source: 'free', endsAt: null };
    case 'unlocked':
    case 'already':
      return {
        chapterId: p.chapterId,
        source: done.source as Unlock['source'],
        endsAt: done.endsAt?.getTime() ?? null,
      };
    default:
      throw await refuse(REFUSALS[done.outcome]);
  }
}

export async function tickets({ repo }: UnlocksDeps, { userId }: { userId: number }) {
  const rows = await repo.tickets(userId);
  const list: ReadingTicket[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    rentalHours: r.rental_hours,
    scope: r.scope_book_ids,
    expiresAt: new Date(r.expires_at).getTime(),
    state: r.state,
  }));
  return { list };
}
