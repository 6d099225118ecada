import { memo } from 'react';

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
}) {
  return (
    <nav className="cat-filter" aria-label={props.label} data-testid={props.testId}>
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
    </nav>
  );
});
