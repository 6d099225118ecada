// antd-mobile's variables first, so ours (the brand colour) override them.
import 'antd-mobile/es/global';
import './styles.css';
// The rules of home's header and carousel, the book page's header and the reader's frame in the main style sheet:
// index.html paints those first screens with them before the scripts arrive (the screens import them too; the build
// keeps one copy).
import './features/home/home.css';
import './components/ad-carousel.css';
import './features/book/book-hero.css';
import './features/reader/reader-frame.css';
import { StrictMode, startTransition } from 'react';
import { App } from './app/app.tsx';
import { setRenderer } from './app/react-root.ts';
import { firstScreenReady } from './app/routes.tsx';
import { listenToServiceWorker } from './pwa/page-worker.ts';

/**
 * React's renderer is evaluated in a task of its own, after the app's modules: one module graph runs in one task, and
 * the whole of it at once was the largest blocking task of every landing page (~100 ms at 4x CPU). index.html asks
 * for the renderer's chunk beside the main bundle (vite.config.ts, the "boot" list), so this waits for no network.
 */
async function start(root: HTMLElement) {
  const [{ createRoot }] = await Promise.all([import('react-dom/client'), firstScreenReady()]);
  setRenderer(createRoot);
  // The first render as a transition: React builds the screen in slices of a few milliseconds, so a slow phone's
  // main thread is never held for the whole tree at once (one task of ~150 ms at 4x CPU otherwise).
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}

const root = document.getElementById('root');
if (root) void start(root);

// Offline re-reading and installing (docs/decisions.md): the service worker is heard from the start, and registered
// by code loaded once the page has loaded, 6 s later: the first screen is left alone (pwa/register.ts).
listenToServiceWorker();
const registerWorker = () =>
  import('./pwa/register.ts').then(
    (m) => m.registerServiceWorker(),
    // Not loaded (the network dropped): the next page load registers it.
    () => undefined,
  );
if (document.readyState === 'complete') void registerWorker();
else window.addEventListener('load', () => void registerWorker(), { once: true });
