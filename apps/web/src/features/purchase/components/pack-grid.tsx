import type { PayConfig } from '@yueman/contract';
import { yuan } from '../pay-helpers.ts';

/**
 * One group of packs (coins, VIP or the monthly card): title, description, price in yuan, bonus, the first-recharge offer when the
 * server gives this reader one, and a recommended mark.
 */
export function PackGrid({
  title,
  packs,
  selectedId,
  onSelect,
}: {
  title: string;
  packs: PayConfig[];
  selectedId: number | null;
  onSelect(pack: PayConfig): void;
}) {
  if (packs.length === 0) return null;
  // Three a row when they fill rows of three, else two (four coin packs make a 2 × 2 block).
  const columns = packs.length % 3 === 0 ? 3 : 2;
  return (
    <section className="pack-group" aria-label={title}>
      <h2 className="pack-group-title">{title}</h2>
      <div className={`pack-grid pack-grid-${columns}`} role="radiogroup" aria-label={title}>
        {packs.map((pack) => {
          const selected = pack.id === selectedId;
          return (
            // biome-ignore lint/a11y/useSemanticElements: a card with several lines of text, chosen like a radio
            <button
              key={pack.id}
              type="button"
              role="radio"
              aria-checked={selected}
              data-testid={`pack-${pack.id}`}
              className={`pack ${selected ? 'is-selected' : ''} pack-${pack.type}`}
              onClick={() => onSelect(pack)}
            >
              {pack.isRecommend === 'Y' && <span className="pack-recommend">推荐</span>}
              <span className="pack-title">{pack.title}</span>
              {pack.presentCount > 0 && <span className="pack-bonus">送{pack.presentCount}阅币</span>}
              {pack.type === 'card' && <span className="pack-bonus">{pack.itemCount}天每日领取</span>}
              {/* The server offers it only to readers who have never paid, while the offer runs. */}
              {(pack.firstPayBonus ?? 0) > 0 && (
                <span className="pack-first-pay">首充加赠 {pack.firstPayBonus} 阅币</span>
              )}
              <span className="pack-desc">{pack.configDesc}</span>
              <span className="pack-price">¥{yuan(pack.amountLevel)}</span>
            </button>
          );
        })}
      </div>
    </section>
  );
}
