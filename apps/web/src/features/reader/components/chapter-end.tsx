import { lazy, Suspense } from 'react';

// The block itself is in the first render: the next chapter's prefetch watches it come near the screen
// (use-next-chapter-prefetch.ts). What it shows is not in a chapter's first screen, so its code (with the service
// links) loads once the reader is idle (reader-page.tsx), out of the reader's first download.
export const loadChapterEndBody = () => import('./chapter-end-body.tsx');
const Body = lazy(loadChapterEndBody);

/** Below the last page: 本话完, the way on to the next chapter (or word that this is the newest), service links. */
export function ChapterEnd(props: { nextNumber: number; onNext(): void }) {
  return (
    <div className="reader-end">
      <Suspense fallback={null}>
        <Body {...props} />
      </Suspense>
    </div>
  );
}
