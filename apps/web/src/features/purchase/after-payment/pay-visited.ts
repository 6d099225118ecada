/** The pay-page-visited flag (spec section 3, local storage): set when the reader confirms a payment. */
const PAY_VISITED_KEY = 'ym-pay-visited';
/** A flag older than this is from a payment long settled; it is dropped without asking. */
const FLAG_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function markPayPageVisited() {
  localStorage.setItem(PAY_VISITED_KEY, JSON.stringify({ at: Date.now() }));
}

/** Reads and clears the flag, so the after-payment dialog asks once per payment. */
export function takePayVisited(): boolean {
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
