import { useEffect, useState } from 'react';

const STEPS = 20; // opacity steps of 0.05
const STEP_MS = 15;

/** Fades in or out by 0.05 every 15 ms (spec sections 4 and 9); `mounted` stays true until fully faded out. */
export function useFade(show: boolean) {
  const [step, setStep] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      setStep((s) => {
        const next = show ? Math.min(STEPS, s + 1) : Math.max(0, s - 1);
        if (next === (show ? STEPS : 0)) clearInterval(timer);
        return next;
      });
    }, STEP_MS);
    return () => clearInterval(timer);
  }, [show]);
  return { opacity: step / STEPS, mounted: show || step > 0 };
}
