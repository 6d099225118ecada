/**
 * Whether the browser is still at the address it was at when this was made. A screen's scroll listener is removed
 * only after React has drawn the next screen (passive effects run after the commit), and the next screen's
 * shorter document scrolls the window: by then the address is the next screen's, so the listener can tell that
 * scroll is not its reader's.
 */
export function stillHere(): () => boolean {
  const address = window.location.pathname + window.location.search;
  return () => window.location.pathname + window.location.search === address;
}
