// The server's build: apps/server/src/main.ts -> apps/server/dist/main.js (ES modules, for Node 24), what `npm start`
// runs. esbuild bundles our own TypeScript and @yueman/contract (TypeScript source, no build of its own); every npm
// package stays an import that Node resolves from node_modules at run time, as it does under tsx (sharp, argon2 and
// PGlite load native or wasm files next to themselves). A module loaded with `await import()` (the demo library's
// seeder) becomes a chunk of its own, loaded only when it is used. No type check here: that is `npm run check`.
//
// Files found relative to a source file (`new URL('../../drizzle', import.meta.url)`: the migrations, the web app's
// build) are found the same way from the bundle: each module's import.meta.url is rewritten to its source file's
// address, taken relative to the output file, so paths resolve exactly as under tsx and vitest, and the checkout can
// move. Usage: node scripts/build-server.mjs (also imported by scripts/start.mjs).
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = path.join(root, 'apps/server');
export const serverEntry = path.join(server, 'src/main.ts');
/**
 * The operators' command-line tools, built beside main.js (dist/operator-cli.js, dist/import-cli.js) so they run from
 * compiled code wherever the server does (a container has no tsx): `npm run operator`, `npm run import`.
 */
export const cliEntries = {
  'operator-cli': path.join(server, 'src/cli/operator-cli.ts'),
  'import-cli': path.join(server, 'src/cli/import-cli.ts'),
  'data-cli': path.join(server, 'src/cli/data-cli.ts'),
};
export const serverOut = path.join(server, 'dist');
/** What the built server comes from (and the migrations it runs): one newer than dist/main.js makes it stale. */
export const serverSources = [
  path.join(server, 'src'),
  path.join(server, 'drizzle'),
  path.join(server, 'package.json'),
  path.join(server, 'tsconfig.json'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'packages/contract/package.json'),
  path.join(root, 'tsconfig.base.json'),
  fileURLToPath(import.meta.url),
];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const workspacePackage = (name) => name.startsWith('@yueman/');
const packageName = (spec) => spec.split('/', spec.startsWith('@') ? 2 : 1).join('/');

/** npm packages are imports left for Node; one missing from the server's (or the contract's) dependencies fails. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    const declared = new Set(
      ['apps/server/package.json', 'packages/contract/package.json'].flatMap((f) =>
        Object.keys(readJson(path.join(root, f)).dependencies ?? {}),
      ),
    );
    const builtins = new Set(builtinModules);
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path))
        return { path: args.path, external: true };
      const name = packageName(args.path);
      if (workspacePackage(name)) return undefined; // bundled: esbuild resolves it to its TypeScript source
      if (!declared.has(name)) {
        return { errors: [{ text: `"${name}" is not in the dependencies of apps/server/package.json` }] };
      }
      return { path: args.path, external: true };
    });
  },
};

/**
 * Each module keeps its own import.meta.url (and dirname, filename): its source file, relative to the output file.
 * Every output file (main.js and its chunks) sits directly in dist/, so one relative path serves them all.
 */
const sourceLocation = {
  name: 'source-location',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!/\bimport\.meta\.(url|dirname|filename)\b/.test(text)) return undefined;
      const rel = path.relative(serverOut, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url)`;
      const contents = text
        .replace(/\bimport\.meta\.url\b/g, `${url}.href`)
        .replace(/\bimport\.meta\.filename\b/g, `__yuemanFileURLToPath(${url})`)
        .replace(/\bimport\.meta\.dirname\b/g, `__yuemanDirname(__yuemanFileURLToPath(${url}))`);
      return { contents, loader: 'ts' };
    });
  },
};

export async function buildServer({ quiet = false } = {}) {
  const started = performance.now();
  const readAt = Date.now();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: serverEntry, ...cliEntries },
    outdir: serverOut,
    // Chunks beside main.js, never in a subfolder: the source-location plugin counts on it.
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    tsconfig: path.join(server, 'tsconfig.json'),
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    banner: {
      js: "import { dirname as __yuemanDirname } from 'node:path';\nimport { fileURLToPath as __yuemanFileURLToPath } from 'node:url';",
    },
    plugins: [externalPackages, sourceLocation],
    write: false,
  });
  // CommonJS bundled into ES modules would call require(), which ES modules do not have: refuse such a bundle.
  const js = result.outputFiles.filter((f) => f.path.endsWith('.js'));
  if (js.some((f) => f.text.includes('Dynamic require of'))) {
    throw new Error('the server bundle calls require(): a CommonJS module was bundled (keep it external)');
  }
  // Written only once the whole build succeeded. A server may be starting from dist/ meanwhile (`npm start` in another
  // terminal, the browser tests): each file is written under another name and renamed, chunks first and main.js
  // last, so it reads one whole build or the other; an earlier build's chunks stay 10 minutes for such a server.
  const entry = path.join(serverOut, 'main.js');
  const files = result.outputFiles.toSorted((a, b) => (a.path === entry) - (b.path === entry));
  mkdirSync(serverOut, { recursive: true });
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  // main.js carries the time the build read its sources: a source saved during the build makes it stale.
  utimesSync(entry, new Date(readAt), new Date(readAt));
  const current = new Set(files.map((f) => f.path));
  for (const name of readdirSync(serverOut)) {
    const file = path.join(serverOut, name);
    const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (!current.has(file) && age > 10 * 60_000) rmSync(file, { force: true });
  }
  if (!quiet) {
    const ms = Math.round(performance.now() - started);
    const kb = Math.round(js.reduce((n, f) => n + f.contents.length, 0) / 1024);
    const files = js.map((f) => path.relative(root, f.path)).join(', ');
    console.log(`built the server: ${files} (${kb} KiB) in ${ms} ms`);
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().catch((err) => {
    // esbuild has already printed its own errors.
    if (!err?.errors) console.error(err);
    process.exit(1);
  });
}
