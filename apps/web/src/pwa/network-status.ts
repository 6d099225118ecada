import { useSyncExternalStore } from 'react';
import type { WorkerMessage } from './sw-rules.ts';

// Whether this device reaches the server: the browser's own flag (navigator.onLine, which is false with the
// network off), or the service worker's word that its last request failed (a network that is "on" but carries
// nothing). Either way the offline notice shows and the reader says what needs the network.

let workerOffline = false;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export const isOffline = () => (typeof navigator !== 'undefined' && !navigator.onLine) || workerOffline;

/** The service worker's reports (sw.ts, `ym-network`). */
export function takeWorkerMessage(message: WorkerMessage | null) {
  if (message?.type !== 'ym-network' || workerOffline === !message.online) return;
  workerOffline = !message.online;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const online = () => {
    // Back online: the worker's last failure no longer counts until it fails again.
    workerOffline = false;
    listener();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', listener);
  };
}

/** True while the device is offline (re-renders when that changes). */
export const useOffline = () => useSyncExternalStore(subscribe, isOffline, () => false);
