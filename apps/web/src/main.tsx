// antd-mobile's variables first, so ours (the brand colour) override them.
import 'antd-mobile/es/global';
import './styles.css';
// Home's header and carousel rules in the main style sheet: index.html paints home's first screen with them before
// the scripts arrive (the home chunk imports them too; the build keeps one copy, here).
import './features/home/home.css';
import './components/ad-carousel.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { firstScreenReady } from './app/routes.tsx';
import { registerServiceWorker } from './pwa/register.ts';

const root = document.getElementById('root');
if (root) {
  void firstScreenReady().then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}

// Offline re-reading and installing (docs/decisions.md): the service worker, once the page has loaded.
registerServiceWorker();
