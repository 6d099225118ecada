import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { homePath, userPath } from '../../../lib/paths.ts';
import { takePayVisited } from './pay-visited.ts';

/** Where the dialog asks (spec section 4: on returning to home or user). */
const ASK_ON = new Set([homePath(), userPath()]);

// The dialogs load only when there is something to ask: the first screen does not carry them.
const AfterPaymentDialogs = lazy(() => import('./after-payment-steps.tsx'));

/**
 * After payment (spec section 4): back on /home or /user with the pay-visited flag set, the reader is asked once
 * whether the payment succeeded. Mounted once by the app, so no screen carries it.
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
