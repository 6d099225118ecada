import type { ChapterInfo } from '@yueman/contract';
import { useChapterPurchase } from '../hooks/use-chapter-purchase.ts';
import { PayOverlay } from './pay-overlay.tsx';

/** A chapter answered with code 999: the buy confirmation, or the recharge prompt when coins are short. */
export function ChapterPurchase({
  bookId,
  number,
  info,
  reload,
}: {
  bookId: number;
  number: number;
  info: ChapterInfo;
  /** Reads the chapter again once it is bought. */
  reload(): void;
}) {
  const { step, balance, buy, recharge } = useChapterPurchase(bookId, number, info, reload);
  return (
    <>
      <PayOverlay
        kind="buy"
        show={step === 'buy'}
        info={info}
        balance={balance}
        onBuy={buy}
        onRecharge={recharge}
      />
      <PayOverlay
        kind="recharge"
        show={step === 'recharge'}
        info={info}
        balance={balance}
        onBuy={buy}
        onRecharge={recharge}
      />
    </>
  );
}
