import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useOffline } from './network-status.ts';
import { updateTookOver } from './page-worker.ts';
import './pwa.css';

export const OFFLINE_NOTICE = '网络已断开，正在离线阅读';

/**
 * Mounted once inside the router (app.tsx): the offline notice while the device is offline, and after an update
 * of the app took over this page, a full load at the next navigation, so the new build's shell and code replace
 * the old ones there (the old build's chunks may be gone from the server and the precache).
 */
export function PwaStatus() {
  const offline = useOffline();
  const { key } = useLocation();
  const seen = useRef(key);
  useEffect(() => {
    if (key === seen.current) return;
    seen.current = key;
    if (updateTookOver()) window.location.reload();
  }, [key]);
  if (!offline) return null;
  return (
    <div className="offline-banner" role="status" aria-live="polite">
      {OFFLINE_NOTICE}
    </div>
  );
}
