import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The landing screens whose chunks index.html starts loading beside the main bundle, by route. */
const LANDING_SCREENS = {
  home: 'src/features/home/home-page.tsx',
  book: 'src/features/book/book-page.tsx',
  reader: 'src/features/reader/reader-page.tsx',
};

/**
 * Fills in index.html's list of each landing screen's chunks and CSS, which its inline script preloads: the
 * screen's code then arrives with the main bundle instead of a round trip after it (build only; in
 * development the list stays empty).
 */
function landingChunks(): Plugin {
  return {
    name: 'yueman-landing-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const filesOf = (source: string) => {
          // A screen's chunk has no facade when Rollup merged other modules' exports into it (the reader's):
          // then it is the dynamic entry that holds the screen's module.
          const screen =
            chunks.find((c) => c.facadeModuleId?.endsWith(source)) ??
            chunks.find((c) => c.isDynamicEntry && c.moduleIds.some((id) => id.endsWith(source)));
          const files = new Set<string>();
          const visit = (chunk: (typeof chunks)[number] | undefined) => {
            if (!chunk || chunk.isEntry || files.has(chunk.fileName)) return;
            files.add(chunk.fileName);
            for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
            for (const name of chunk.imports) visit(chunks.find((c) => c.fileName === name));
          };
          visit(screen);
          return [...files].map((f) => `/${f}`);
        };
        const list = {
          // React's renderer, which src/main.tsx loads in a step of its own: asked for on every page.
          boot: filesOf('node_modules/react-dom/client.js'),
          ...Object.fromEntries(
            Object.entries(LANDING_SCREENS).map(([screen, source]) => [screen, filesOf(source)]),
          ),
        };
        const withList = html.replace('/* landing chunks */ {}', JSON.stringify(list));
        return startAfterFirstPaint(inlineMainStyleSheet(withList, ctx.bundle ?? {}));
      },
    },
  };
}

/**
 * The main style sheet (antd-mobile's variables, ours, and the first screens' rules: 5.5 KB gzip) goes into the
 * page as a <style>: a linked sheet blocks the first paint for a request of its own, on a slow link one more round
 * trip (often on a new connection) before anything shows. The page is written per request and never cached, so
 * nothing is lost to caching; the file stays in the build for the service worker's precache.
 */
function inlineMainStyleSheet(
  html: string,
  bundle: Record<string, { type: string; source?: unknown }>,
): string {
  const link = /<link rel="stylesheet" crossorigin href="\/(assets\/index-[^"]+\.css)">/.exec(html);
  if (!link) throw new Error('index.html: the main style sheet link was not found');
  const css = bundle[link[1] ?? '']?.source;
  if (typeof css !== 'string') throw new Error(`index.html: ${link[1]} is not in the bundle`);
  if (/<\/style/i.test(css)) throw new Error(`${link[1]} cannot be inlined: it contains </style`);
  return html.replace(link[0], () => `<style>${css}</style>`);
}

/**
 * The main bundle's script tag becomes a start at the end of the body, which fetches the landing screen's chunks
 * (window.__YM_SCREEN_CODE__) and the bundle once window.__YM_FIRST_PAINT__ settles: home's first screen painted
 * from the data in the page, 500 ms at most (index.html). On a slow link the picture then has the bandwidth to
 * itself, and on a fast one the bundle does not take the main thread before the picture is painted; the code starts
 * one round trip later (docs/decisions.md, "First data in the page"). Other pages start once the browser reports
 * their first frame (the brand bar) painted, a second at most (a hidden tab, which has no frames, at once), so that
 * frame never waits for the code. Not two animation frames: on a busy machine the paint is shown, and timed, after
 * the second frame's callbacks have run (CI saw the code asked 4 ms before the first paint). Browsers without paint
 * timing wait two frames.
 */
function startAfterFirstPaint(html: string): string {
  const tag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(html);
  if (!tag) throw new Error('index.html: the main bundle script tag was not found');
  const start = `<script>(() => {
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        if (window.__YM_SCREEN_CODE__) window.__YM_SCREEN_CODE__();
        import(${JSON.stringify(tag[1])});
      };
      const painted = window.__YM_FIRST_PAINT__;
      if (painted) painted.then(start);
      else if (document.visibilityState === 'hidden') start();
      else {
        const kinds = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
        if (kinds.includes('paint')) {
          new PerformanceObserver((_, observer) => {
            observer.disconnect();
            start();
          }).observe({ type: 'paint', buffered: true });
          setTimeout(start, 1000);
        } else requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start)));
        document.addEventListener('visibilitychange', start, { once: true });
      }
    })();</script>`;
  return html.replace(tag[0], '').replace('</body>', `  ${start}\n  </body>`);
}

/**
 * The main bundle and React's renderer start with V8's compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136 and
 * later; other browsers read a comment): V8 then compiles their functions on the thread that streams the download,
 * not one by one on the main thread when each is first called. Nearly all of them run at the first render. Their
 * evaluation tasks were 17 ms of CPU each on this machine (about 70 ms at Lighthouse's 4x), with the hint 9 ms and
 * under 8 (docs/decisions.md, "Compile hints for the code every page starts"). Added after minification, which would
 * drop the comment; a source map of these two files is then one line off.
 */
function compileHints(): Plugin {
  return {
    name: 'yueman-compile-hints',
    apply: 'build',
    // Last: Vite's own preload list is also written at the top of the main bundle in this step.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          const renderer = chunk.moduleIds.some((id) => id.endsWith('node_modules/react-dom/client.js'));
          if (chunk.isEntry || renderer) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
        }
      },
    },
  };
}

/**
 * A brotli (.br) and a gzip (.gz) copy beside every built script and style sheet of 1 KB or more, at the highest
 * levels, made once here: the server sends them as they are (@fastify/static's `preCompressed`, web.routes.ts)
 * instead of compressing the same file again for every request. A smaller file goes as it is (the server's
 * compression starts at 1 KB too). The service worker's precache lists only the .js and .css files.
 */
function precompressedCopies(): Plugin {
  return {
    name: 'yueman-precompressed-copies',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) return;
      const assets = path.join(options.dir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const file = path.join(assets, name);
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        const brotli = {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        };
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: brotli }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * Building with VITE_WITHDRAW_SERVICE_WORKER=true ships a worker that removes itself and its caches from every
 * reader's browser, and a page that registers none (docs/operations.md): the way back from a broken worker.
 */
const withdrawWorker = process.env.VITE_WITHDRAW_SERVICE_WORKER === 'true';

/**
 * The service worker (src/pwa/sw.ts, docs/decisions.md "Offline re-reading"), built into dist/sw.js with the list
 * of files to precache: the hashed code and styles only. index.html is not precached (the server writes the
 * runtime config into it: the worker keeps the last one the network gave), nor the manifest and icons (the server
 * writes the branch into the manifest; the icons are for the launcher). The page registers it (src/pwa/register.ts).
 */
const serviceWorker = VitePWA({
  strategies: 'injectManifest',
  selfDestroying: withdrawWorker,
  srcDir: 'src/pwa',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: false,
  includeManifestIcons: false,
  injectManifest: {
    globPatterns: ['assets/**/*.{js,css}'],
    // A classic script: module service workers are missing from older phone browsers.
    rollupFormat: 'iife',
  },
});

export default defineConfig({
  plugins: [react(), landingChunks(), compileHints(), precompressedCopies(), serviceWorker],
  resolve: {
    // One React for the app and every library (antd-mobile's animation library once pulled in React 18).
    dedupe: ['react', 'react-dom'],
    // antd-mobile's unused legacy renderer, replaced by ours (src/lib/antd-default-render.ts says why).
    alias: [
      {
        find: /^rc-util\/lib\/React\/render$/,
        replacement: fileURLToPath(new URL('./src/lib/antd-default-render.ts', import.meta.url)),
      },
    ],
  },
  server: { proxy: { '/api': 'http://localhost:8080', '^/.*\\.img$': 'http://localhost:8080' } },
  build: { target: 'es2020' },
});
