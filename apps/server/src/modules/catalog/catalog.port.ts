import type { ChapterInfo } from '@yueman/contract';

/** What other modules may ask of the catalogue: what the image host needs to decide about a page path. */
export interface CatalogPort {
  /** True when a free chapter lists this page path (it is served without a grant). */
  isFreePage(path: string): Promise<boolean>;
  /** True when a book, chapter, page or ad names this image path. */
  isKnownImage(path: string): Promise<boolean>;
  /** A free chapter of a published book as read_chapter answers it, read counted nowhere; null for any other. */
  freeChapter(bookId: number, number: number): Promise<ChapterInfo | null>;
}
