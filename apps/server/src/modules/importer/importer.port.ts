export interface ImportOptions {
  /** Into this book (else the book whose title matches, else a new one). */
  bookId?: number;
  /** The book's title, over what the files say (ComicInfo's Series, else the folder's or archive's name). */
  title?: string;
  /** Chapters numbered up to this are free; later ones cost `price` (both absent: every chapter free). */
  freeChapters?: number;
  price?: number;
  /** VIP readers read the book's priced chapters free. */
  vipFree?: boolean;
  /** Print the plan, write nothing. */
  dryRun?: boolean;
  /** A chapter number that exists with different pages is replaced (else refused). */
  replace?: boolean;
}

/** Who asked for an import: an operator of the console, or the command line (operatorId null, actor 'cli'). */
export interface ImportActor {
  operatorId: number | null;
  actor: string;
}

export interface ImportRun {
  /** A file or folder on this machine (an upload is first saved to one). */
  source: string;
  options: ImportOptions;
  by: ImportActor;
  progress?(done: number, total: number): void;
}

export type ChapterOutcome = 'added' | 'unchanged' | 'replaced' | 'planned';

export interface ImportReport {
  bookId: number | null;
  title: string;
  created: boolean;
  chapters: { number: number; title: string; pages: number; price: number; outcome: ChapterOutcome }[];
}

/** What other modules (and main.ts's control socket) may ask of the importer. */
export interface ImporterPort {
  /** Imports a book from a file or folder on this machine (the control socket's `npm run import`), audited. */
  importFrom(run: ImportRun): Promise<ImportReport>;
}
