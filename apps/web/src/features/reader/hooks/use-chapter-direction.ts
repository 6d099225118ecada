import { useState } from 'react';

export type ChapterDirection = 'forward' | 'backward' | 'none';

/** The chapter slides in from the right when the number goes up and from the left when it goes down. */
export function useChapterDirection(number: number): ChapterDirection {
  // Kept per chapter, so later renders of the same chapter (its data arriving) keep the direction.
  const [seen, setSeen] = useState({ number, direction: 'none' as ChapterDirection });
  if (seen.number !== number) {
    const direction = number > seen.number ? 'forward' : 'backward';
    setSeen({ number, direction });
    return direction;
  }
  return seen.direction;
}
