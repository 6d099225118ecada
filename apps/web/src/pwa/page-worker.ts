import { takeWorkerMessage } from './network-status.ts';
import type { WorkerMessage } from './sw-rules.ts';

// What the page hears from the service worker from its first moment: a newer worker taking over, and the worker's
// network reports. Registering the worker, the manifest and the account (register.ts) wait for the page's load and
// come in a chunk of their own, out of every page's first download.

/** A new worker took over from an older one while this page ran: the page's code is the old build's. */
let updated = false;
export const updateTookOver = () => updated;

export function listenToServiceWorker() {
  if (typeof window === 'undefined' || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // A build that withdraws the worker (vite.config.ts) has no worker to hear from, as register.ts registers none.
  if (import.meta.env.VITE_WITHDRAW_SERVICE_WORKER === 'true') return;
  const container = navigator.serviceWorker;
  let controlled = !!container.controller;
  container.addEventListener('controllerchange', () => {
    // The first worker taking control of a page it did not load is no update.
    if (controlled) updated = true;
    controlled = true;
  });
  container.addEventListener('message', (e) => takeWorkerMessage(e.data as WorkerMessage | null));
}
