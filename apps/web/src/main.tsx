// antd-mobile's variables first, so ours (the brand colour) override them.
import 'antd-mobile/es/global';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './pwa/register.ts';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// Offline re-reading and installing (docs/decisions.md): the service worker, once the page has loaded.
registerServiceWorker();
