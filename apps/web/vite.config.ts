import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The landing screens whose chunks index.html starts loading beside the main bundle, by route. */
const LANDING_SCREENS = { home: 'src/features/home/home-page.tsx', book: 'src/features/book/book-page.tsx' };

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
          const screen = chunks.find((c) => c.facadeModuleId?.endsWith(source));
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
        const list = Object.fromEntries(
          Object.entries(LANDING_SCREENS).map(([screen, source]) => [screen, filesOf(source)]),
        );
        return html.replace('/* landing chunks */ {}', JSON.stringify(list));
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), landingChunks()],
  // One React for the app and every library (antd-mobile's animation library once pulled in React 18).
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { proxy: { '/api': 'http://localhost:8080', '^/.*\\.img$': 'http://localhost:8080' } },
  build: { target: 'es2020' },
});
