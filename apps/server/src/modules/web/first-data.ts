import type { ChapterInfo } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ok } from '../../shared/envelope.ts';
import { answerBytes, encodedBodyCounted, type StaticAnswer } from '../../shared/static-answers.ts';

/**
 * A landing screen's first call, written into its page (docs/decisions.md, "First data in the page"). On a slow
 * phone network the home and book screens waited for the page, then the scripts, then this call, then their main
 * picture; with the answer in the page, index.html's inline scripts start the picture at once and paint it before
 * the scripts arrive, and the screen renders its content on its first frame (apps/web/src/lib/early-data.ts).
 *
 * Only answers that are the same for every reader, so nothing of one reader's can reach another's page: the static
 * calls of home and the book page (the server keeps them, static-answers.ts, so they cost no query), and a free
 * chapter of a published book as read_chapter answers anyone (its pages need no grant), for the reader.
 */
/** A landing screen's first call, and for the reader the chapter it asks for. */
interface Landing {
  path: string;
  chapter?: { bookId: number; number: number };
}

const LANDINGS: [RegExp, (m: RegExpExecArray) => Landing][] = [
  [/^\/home$/, () => ({ path: '/api/book/home/index' })],
  [/^\/book\/([1-9]\d{0,9})$/, (m) => ({ path: `/api/book/detail/${m[1]}` })],
  [
    /^\/book\/read\/([1-9]\d{0,9})\/([1-9]\d{0,9})$/,
    (m) => ({
      path: `/api/book/read_chapter?bookId=${m[1]}&number=${m[2]}`,
      chapter: { bookId: Number(m[1]), number: Number(m[2]) },
    }),
  ],
];

function landingOf(pathname: string): Landing | null {
  for (const [pattern, landing] of LANDINGS) {
    const m = pattern.exec(pathname);
    if (m) return landing(m);
  }
  return null;
}

/** The call a landing screen's path starts with, or null for every other screen. */
export const landingCall = (pathname: string): string | null => landingOf(pathname)?.path ?? null;

/**
 * The page's data block: `{"path", "body"}` as JSON in a script the browser does not run (so the policy needs no
 * hash for it). `<` is escaped so nothing an operator writes in a title can close the block.
 */
export const firstDataScript = (path: string, body: string) =>
  `<script type="application/json" id="ym-first-data">{"path":${JSON.stringify(path)},"body":${body.replaceAll('<', '\\u003c')}}</script>`;

/** Where a free chapter comes from (the catalogue's port): null for any chapter that is not free to anyone. */
export type FreeChapter = (bookId: number, number: number) => Promise<ChapterInfo | null>;

/**
 * The block for the page at `url`, or '' when the screen has no landing call or the call did not answer a success
 * (an unknown book, a priced chapter: the screen asks and shows its own answer).
 */
export async function firstDataFor(
  app: FastifyInstance,
  freeChapter: FreeChapter,
  url: string,
): Promise<string> {
  const landing = landingOf(url.split('?', 1)[0] as string);
  if (!landing) return '';
  const { path, chapter } = landing;
  if (chapter) {
    // Not the call itself: it counts a read, and it answers the reader's own chapters; this is everyone's.
    const info = await freeChapter(chapter.bookId, chapter.number);
    return info ? firstDataScript(path, JSON.stringify(ok(info))) : '';
  }
  // Answered from the kept static answer (static-cache.ts). A failure answers its own HTTP status
  // (shared/error-handler.ts), so a 200 is a success: no need to parse a home index on every page.
  const res = await app.inject({ method: 'GET', url: path });
  return res.statusCode === 200 ? firstDataScript(path, res.body) : '';
}

/**
 * The landing pages with their data, each kept with its compressed copies until its data changes (the static
 * answers change when an operator edits the catalogue). At most `maxBytes` of pages (their HTML and compressed
 * copies), the least recently used dropped first.
 */
export class LandingPages {
  private readonly pages: LRUCache<string, { first: string; answer: StaticAnswer }>;

  constructor(
    private readonly template: string,
    readonly maxBytes = 8 * 1024 * 1024,
  ) {
    this.pages = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (page, path) => answerBytes(page.answer, path) + page.first.length * 2,
    });
  }

  /** The bytes kept now. */
  bytes(): number {
    return this.pages.calculatedSize;
  }

  encoded(url: string, first: string, acceptEncoding: string | undefined) {
    const path = url.split('?', 1)[0] as string;
    let page = this.pages.get(path);
    if (page?.first !== first) {
      // After the runtime config, the page's first script: index.html's own scripts read the data.
      const html = this.template.replace('</script>', `</script>${first}`);
      page = { first, answer: { body: Buffer.from(html), etag: '', expires: 0 } };
      this.pages.set(path, page);
    }
    const kept = page;
    // A compressed copy made now: the page is kept again under its new size.
    return encodedBodyCounted(kept.answer, acceptEncoding, () => {
      if (this.pages.peek(path) !== kept) return;
      this.pages.delete(path);
      this.pages.set(path, kept);
    });
  }
}
