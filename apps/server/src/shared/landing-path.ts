/** The web app's screen a hand-off link opens. */
export const HANDOFF_PATH = '/handoff';

/** A path of this site to land on, or the home page: `//host`, `/\host` and absolute addresses are not paths. */
export function safeLandingPath(raw: string | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/home';
  try {
    const url = new URL(raw, 'http://x');
    if (url.host !== 'x') return '/home';
    // Not back into the prompt or the hand-off itself.
    if (url.pathname === '/open-in-browser' || url.pathname === HANDOFF_PATH) return '/home';
    return `${url.pathname}${url.search}`;
  } catch {
    return '/home';
  }
}
