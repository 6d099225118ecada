// Rules of the repository that no compiler or import check sees: every path the docs name exists, no comment or doc
// points at an issue number or a note (they say what the code does, not where a request came from), and every file
// that registers console routes is named `*.console.routes.ts` (docs/ARCHITECTURE.md, "Modules"). Read from the
// files as git lists them (tracked and new, not ignored): no app, no database.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const FILES = git('ls-files', '--cached', '--others', '--exclude-standard')
  .split('\n')
  .filter((f) => f && existsSync(path.join(ROOT, f)));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Where the docs' short paths start: `modules/…` is under apps/server/src, `e2e/…` under a web app, and so on. */
const BASES = [
  '',
  'apps/server/src/',
  'apps/server/',
  'apps/web/src/',
  'apps/web/',
  'apps/admin/src/',
  'apps/admin/',
  'packages/contract/src/',
  'packages/contract/',
];
const DIRS = new Set(
  FILES.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const BASENAMES = new Set(FILES.map((f) => path.basename(f)));
/** Made by a build or a run (`apps/server/dist/`, `bench/results/`): ignored by git, so named but never committed. */
const isIgnored = (p: string) =>
  [p, `${p}/`].some((q) => {
    try {
      git('check-ignore', '-q', '--no-index', q);
      return true;
    } catch {
      return false;
    }
  });
const exists = (p: string) => existsSync(path.join(ROOT, p)) || isIgnored(p);

/** A backticked word that names a file or folder of this repository, by its first folder or its extension. */
const PATH_LIKE = /^\.?[A-Za-z0-9_@-][A-Za-z0-9_.@-]*(\/[A-Za-z0-9_.@-]+)*\/?$/;
/** Bare names of sources (a bare `main.js` or `sw.js` is a built file, named as it runs). */
const SOURCE_EXT = /.\.(ts|tsx|mts|mjs|cjs|md|sql|yaml|yml|conf|template)$/;

/** What a doc names that is not there: each backticked path, tried from the repository root and the apps' roots. */
function missingPaths(doc: string): string[] {
  const missing: string[] = [];
  for (const [, span] of read(doc).matchAll(/`([^`\n]+)`/g)) {
    const word = (span as string).replace(/:\d+(-\d+)?$/, '');
    if (!PATH_LIKE.test(word) || word.startsWith('/')) continue;
    if (!word.includes('/')) {
      // A bare file name (`front.ts`): some file of the repository has it.
      if (SOURCE_EXT.test(word) && !BASENAMES.has(word) && !exists(word)) missing.push(word);
      continue;
    }
    const first = word.split('/')[0] as string;
    const bases = BASES.filter((b) => DIRS.has(b + first) || existsSync(path.join(ROOT, b + first)));
    // `text/html`, `br/gzip`: no folder of ours starts so.
    if (bases.length === 0) continue;
    if (!bases.some((b) => exists(b + word.replace(/\/$/, '')))) missing.push(word);
  }
  return missing;
}

describe('the docs', () => {
  const docs = FILES.filter(
    (f) => /^docs\/[^/]+\.md$/.test(f) || f === 'README.md' || f === 'bench/README.md',
  );

  it('name only paths that exist', () => {
    expect(docs).toContain('docs/ARCHITECTURE.md');
    const missing = docs.flatMap((doc) => missingPaths(doc).map((p) => `${doc}: ${p}`));
    expect(missing).toEqual([]);
  });

  it('catch a path that does not exist (the check itself)', () => {
    expect(PATH_LIKE.test('apps/server/src/modules/nowhere.ts')).toBe(true);
    expect(exists('apps/server/src/modules/nowhere.ts')).toBe(false);
    expect(exists('apps/server/src/modules/module-context.ts')).toBe(true);
  });
});

/** Words that point at where a change was asked for rather than at what the code does. */
const POINTERS: [string, RegExp][] = [
  ['an issue number', /\bissues?\s*#?\s*\d+/i],
  ['an item of an issue', /\(items? \d+\)|: items? \d+\b/i],
  ['an issue', /\bthe issue['’]s\b/i],
  // Colours (#888) have three or six digits.
  ['a numbered ticket', /(^|[\s(])#\d{1,2}\b/],
  ['a note', /\bthe note of\b|\bthe (closing|session'?s?) note\b/i],
];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|md|yaml|yml|json|sh|conf|template|html|css)$|(^|\/)(Dockerfile|run)$/;
const SELF = 'apps/server/test/repo-rules.test.ts';

describe('comments and docs', () => {
  it('point at no issue number and no note', () => {
    const found: string[] = [];
    for (const file of FILES) {
      if (!TEXT.test(file) || file === SELF || file.endsWith('package-lock.json')) continue;
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const [what, pattern] of POINTERS)
            if (pattern.test(line)) found.push(`${file}:${i + 1} (${what}): ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('see such a pointer where one is written (the check itself)', () => {
    const hit = (line: string) => POINTERS.some(([, pattern]) => pattern.test(line));
    expect(hit('// as asked in issue 23, item 2')).toBe(true);
    expect(hit('see #24')).toBe(true);
    expect(hit('PKCS#8 or PKCS#1, colour #888;')).toBe(false);
  });
});

describe('console code', () => {
  it('registers its routes only in files named *.console.routes.ts', () => {
    // A console route: one of the contract's admin entries, or a route guarded by operator roles.
    const consoleRoutes = (source: string) =>
      /contractRoute\(\s*adminRoutes\./.test(source) ||
      (/operatorRoles\s*:/.test(source) && /\.(route|get|post|put|patch|delete)\(/.test(source));
    const misnamed = FILES.filter(
      (f) =>
        /^apps\/server\/src\/modules\/.+\.ts$/.test(f) &&
        !f.endsWith('.test.ts') &&
        !f.endsWith('.console.routes.ts') &&
        consoleRoutes(read(f)),
    );
    expect(misnamed).toEqual([]);
  });
});
