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
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { firstScreenReady } from './app/routes.tsx';
import { registerServiceWorker } from './pwa/register.ts';

const root = document.getElementById('root');
if (root) {
  // The first render as a transition: React builds the screen in slices of a few milliseconds, so a slow phone's
  // main thread is never held for the whole tree at once (one task of ~150 ms at 4x CPU otherwise).
  void firstScreenReady().then(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  );
}

// Offline re-reading and installing (docs/decisions.md): the service worker, once the page has loaded.
registerServiceWorker();
