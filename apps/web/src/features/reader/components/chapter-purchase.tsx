import type { ChapterInfo } from '@yueman/contract';
import { useBookDetail } from '../../../lib/api/book-detail.ts';
import { useChapterPurchase } from '../hooks/use-chapter-purchase.ts';
import { PayOverlay } from './pay-overlay.tsx';

/** A chapter answered with code 999: the buy prompt (every way the chapter offers), or the recharge prompt. */
export function ChapterPurchase({
  bookId,
  number,
  info,
  reload,
}: {
  bookId: number;
  number: number;
  info: ChapterInfo;
  /** Reads the chapter again once it is unlocked. */
  reload(): void;
}) {
  const { step, balance, options, buy, unlock, recharge } = useChapterPurchase(bookId, number, info, reload);
  // The book's wait draws the wait-for-free gauge (the static detail, usually cached already).
  const waitMinutes = useBookDetail(bookId, !!options?.waitFree).data?.waitFree?.waitMinutes;
  // Both overlays stay mounted, so one fades out while the other fades in.
  return (
    <>
      {(['buy', 'recharge'] as const).map((kind) => (
        <PayOverlay
          key={kind}
          kind={kind}
          show={step === kind}
          info={info}
          options={kind === 'buy' ? options : undefined}
          waitMinutes={waitMinutes}
          balance={balance}
          onBuy={buy}
          onUnlock={unlock}
          onRecharge={recharge}
        />
      ))}
    </>
  );
}
