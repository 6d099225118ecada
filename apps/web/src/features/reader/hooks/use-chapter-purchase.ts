import {
  type BuyChapterShort,
  type ChapterInfo,
  Code,
  type UnlockBy,
  type UnlockOptions,
} from '@yueman/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { showAlert } from '../../../components/alert.ts';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { purchasePath } from '../../../lib/paths.ts';
import { useUserStore } from '../../../lib/user-store.ts';
import { buyChapter } from '../api/buy-chapter.ts';
import { unlockChapter } from '../api/unlock-chapter.ts';
import { useAutoBuyStore } from '../auto-buy-store.ts';
import { MESSAGES } from '../reader-helpers.ts';
import { useReaderSettings } from '../reader-settings-store.ts';
import { autoUnlockWay } from '../unlock-choices.ts';

export type PurchaseStep = 'buy' | 'recharge';

function setBalance(avaliableAmount: number) {
  const { userInfo, setUser } = useUserStore.getState();
  if (userInfo) setUser({ ...userInfo, avaliableAmount });
}

/** The notice after an unlock other than coins. */
const UNLOCKED: Record<Exclude<UnlockBy, 'coins'>, string> = {
  ticket: '已使用阅读券解锁',
  wait_free: '已免费解锁本话',
  bundle: '打包购买成功',
};

/**
 * Code 999 (spec section 4): the chapter must be unlocked first. This is the one place that acts on it: which
 * overlay shows (the buy prompt with every way the chapter offers, or 阅币不足 when the balance is short) and
 * what their buttons do. A book on the auto-buy list is unlocked at once, the first usable way of the reader's
 * spending order (settings), without the overlay and without the notice. The server decides the price, the
 * balance and what is usable; a second tap while a call is on its way does nothing (and the server would spend
 * once anyway).
 */
export function useChapterPurchase(bookId: number, number: number, info: ChapterInfo, reload: () => void) {
  const navigate = useNavigate();
  const balance = useUserStore((s) => s.userInfo?.avaliableAmount ?? 0);
  // Whether the book was on the auto-buy list when the chapter answered 999: ticking the box on the overlay
  // puts the book on the list for the next chapters, it does not buy this one.
  const [autoBuy] = useState(() => useAutoBuyStore.getState().bookIds.includes(bookId));
  const [step, setStep] = useState<PurchaseStep | 'buying'>(autoBuy ? 'buying' : 'buy');
  // What the chapter offers: as read_chapter answered, then as the last refusal said.
  const [options, setOptions] = useState<UnlockOptions | undefined>(info.unlockOptions);
  const busy = useRef(false);

  const once = async (work: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await work();
    } finally {
      busy.current = false;
    }
  };

  const failed = async (res: { code: number; msg: string } | null) => {
    if (res?.code === Code.userUnknown) await refreshUser();
    showAlert(res?.code === Code.userUnknown || !res ? MESSAGES.noUser : res.msg);
    setStep('buy');
  };

  const buy = (quietly: boolean) =>
    once(async () => {
      const res = await buyChapter(info.chapterId).catch(() => null);
      if (res?.result) {
        setBalance(res.data.avaliableAmount);
        if (!quietly) showAlert(MESSAGES.bought);
        reload();
      } else if (res?.code === Code.paymentNeeded) {
        // Short of coins: the refusal carries the price and the balance.
        setBalance((res.data as BuyChapterShort).avaliableAmount);
        setStep('recharge');
      } else await failed(res);
    });

  const unlock = (by: Exclude<UnlockBy, 'coins'>, quietly: boolean) =>
    once(async () => {
      const res = await unlockChapter(bookId, info.chapterId, by).catch(() => null);
      if (res?.result) {
        if (!quietly) showAlert(UNLOCKED[by]);
        if (by === 'bundle') void refreshUser();
        reload();
      } else if (res?.code === Code.paymentNeeded) {
        // Refused (the wait not over, no ticket left, coins short for the bundle): show why and what is left.
        const now = res.data as unknown as UnlockOptions | null;
        if (now) setOptions(now);
        showAlert(res.msg);
        setStep('buy');
      } else await failed(res);
    });

  // The balance the overlay shows is the server's, not what this device last saw.
  useEffect(() => {
    void refreshUser();
  }, []);

  // Auto-buy: unlock this chapter at once, the first usable way of the spending order, once per chapter shown.
  const autoBought = useRef(false);
  useEffect(() => {
    if (!autoBuy || autoBought.current) return;
    autoBought.current = true;
    const way = autoUnlockWay(options, useReaderSettings.getState().spendOrder, Date.now());
    void (way === 'coins' ? buy(true) : unlock(way, true));
  });

  // number rides along so the recharge centre can bring the reader back to this chapter after paying.
  const recharge = () => navigate(purchasePath({ bookId, number }));

  return {
    step,
    balance,
    options,
    buy: () => void buy(false),
    unlock: (by: Exclude<UnlockBy, 'coins'>) => void unlock(by, false),
    recharge,
  };
}
