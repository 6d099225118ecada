import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** The pay-page-visited flag (spec section 3, local storage): set when the reader confirms a payment. */
const PAY_VISITED_KEY = 'ym-pay-visited';
/** A flag older than this is from a payment long settled; it is dropped without asking. */
const FLAG_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Where the dialog asks (spec section 4: on returning to home or user). */
const ASK_ON = new Set(['/home', '/user']);

export function markPayPageVisited() {
  localStorage.setItem(PAY_VISITED_KEY, JSON.stringify({ at: Date.now() }));
}

/** Reads and clears the flag, so the dialog asks once per payment. */
function takePayVisited(): boolean {
  const raw = localStorage.getItem(PAY_VISITED_KEY);
  if (raw === null) return false;
  localStorage.removeItem(PAY_VISITED_KEY);
  try {
    const at = Number((JSON.parse(raw) as { at?: unknown }).at);
    return Number.isFinite(at) && Date.now() - at < FLAG_MAX_AGE_MS;
  } catch {
    return false;
  }
}

// The dialogs load only when there is something to ask: the first screen does not carry them.
const AfterPaymentDialogs = lazy(() => import('./after-payment-steps.tsx'));

/**
 * After payment (spec section 4): back on /home or /user with the pay-visited flag set, the reader is asked once
 * whether the payment succeeded. Mounted once in the app, so no screen carries it.
 */
export function AfterPaymentDialog() {
  const { pathname } = useLocation();
  const [asking, setAsking] = useState(0);
  useEffect(() => {
    if (ASK_ON.has(pathname) && takePayVisited()) setAsking((n) => n + 1);
  }, [pathname]);
  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <AfterPaymentDialogs key={asking} />
    </Suspense>
  );
}
