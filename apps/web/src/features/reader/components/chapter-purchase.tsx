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
  // Both overlays stay mounted, so one fades out while the other fades in.
  return (
    <>
      {(['buy', 'recharge'] as const).map((kind) => (
        <PayOverlay
          key={kind}
          kind={kind}
          show={step === kind}
          info={info}
          balance={balance}
          onBuy={buy}
          onRecharge={recharge}
        />
      ))}
    </>
  );
}
