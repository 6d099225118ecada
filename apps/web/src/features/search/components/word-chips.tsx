/** Tappable words (hot searches or history); the first three hot words are marked. */
export function WordChips({
  words,
  onPick,
  hot = false,
}: {
  words: string[];
  onPick(w: string): void;
  hot?: boolean;
}) {
  return (
    <div className="search-chips">
      {words.map((w, i) => (
        <button
          key={w}
          type="button"
          className={`search-chip ${hot && i < 3 ? 'search-chip-hot' : ''}`}
          onClick={() => onPick(w)}
        >
          {w}
        </button>
      ))}
    </div>
  );
}
