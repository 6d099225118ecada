import { memo } from 'react';
import { Bone } from '../../../components/skeletons/parts.tsx';

export interface Chip {
  value: string;
  label: string;
}

/** One row of tappable filter chips; the selected one is highlighted. */
export const FilterChips = memo(function FilterChips(props: {
  label: string;
  chips: Chip[];
  value: string;
  onChange(value: string): void;
  testId: string;
  /** Placeholders after the chips while the rest of them loads. */
  placeholders?: number;
}) {
  return (
    <nav className="cat-filter sk" aria-label={props.label} data-testid={props.testId}>
      {props.chips.map((c) => (
        <button
          key={c.value}
          type="button"
          aria-pressed={c.value === props.value}
          className={`cat-chip ${c.value === props.value ? 'cat-chip-on' : ''}`}
          onClick={() => c.value !== props.value && props.onChange(c.value)}
        >
          {c.label}
        </button>
      ))}
      {Array.from({ length: props.placeholders ?? 0 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders, all alike
        <Bone key={i} w={44} h={28} r={14} />
      ))}
    </nav>
  );
});
