import { type BuyChapterShort, type ChapterInfo, Code } from '@yueman/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { showAlert } from '../../../components/alert.ts';
import { refreshUser } from '../../../lib/api/user-info.ts';
import { purchasePath } from '../../../lib/paths.ts';
import { useUserStore } from '../../../lib/user-store.ts';
import { buyChapter } from '../api/buy-chapter.ts';
import { useAutoBuyStore } from '../auto-buy-store.ts';
import { MESSAGES } from '../reader-helpers.ts';

export type PurchaseStep = 'buy' | 'recharge';

function setBalance(avaliableAmount: number) {
  const { userInfo, setUser } = useUserStore.getState();
  if (userInfo) setUser({ ...userInfo, avaliableAmount });
}

/**
 * Code 999 (spec section 4): the chapter must be bought first. This is the one place that acts on it: which
 * overlay shows (购买本章节, or 阅币不足 when the balance is short) and what their buttons do. A book on the
 * auto-buy list is bought at once, without the overlay and without the 购买成功 notice. The server decides
 * the price and the balance; a second tap while a buy is on its way does nothing (and the server would charge
 * once anyway).
 */
export function useChapterPurchase(bookId: number, number: number, info: ChapterInfo, reload: () => void) {
  const navigate = useNavigate();
  const balance = useUserStore((s) => s.userInfo?.avaliableAmount ?? 0);
  // Whether the book was on the auto-buy list when the chapter answered 999: ticking the box on the overlay
  // puts the book on the list for the next chapters, it does not buy this one.
  const [autoBuy] = useState(() => useAutoBuyStore.getState().bookIds.includes(bookId));
  const [step, setStep] = useState<PurchaseStep | 'buying'>(autoBuy ? 'buying' : 'buy');
  const busy = useRef(false);

  const buy = async (quietly: boolean) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const res = await buyChapter(info.chapterId).catch(() => null);
      if (res?.result) {
        setBalance(res.data.avaliableAmount);
        if (!quietly) showAlert(MESSAGES.bought);
        reload();
      } else if (res?.code === Code.paymentNeeded) {
        // Short of coins: the refusal carries the price and the balance.
        setBalance((res.data as BuyChapterShort).avaliableAmount);
        setStep('recharge');
      } else {
        if (res?.code === Code.userUnknown) await refreshUser();
        showAlert(res?.code === Code.userUnknown || !res ? MESSAGES.noUser : res.msg);
        setStep('buy');
      }
    } finally {
      busy.current = false;
    }
  };

  // The balance the overlay shows is the server's, not what this device last saw.
  useEffect(() => {
    void refreshUser();
  }, []);

  // Auto-buy: buy this chapter at once, once per chapter shown.
  const autoBought = useRef(false);
  useEffect(() => {
    if (!autoBuy || autoBought.current) return;
    autoBought.current = true;
    void buy(true);
  });

  // number rides along so the recharge centre can bring the reader back to this chapter after paying.
  const recharge = () => navigate(purchasePath({ bookId, number }));

  return { step, balance, buy: () => void buy(false), recharge };
}
