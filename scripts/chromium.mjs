// Debian's Chromium, as every browser test and the Lighthouse benchmark start it: no downloaded browser, nothing
// that reaches the network on its own (updates, sync, field trials), no sandbox (CI runs as root).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * The browser tests drive Chromium's headless shell (Debian's chromium-headless-shell, of the same Chromium version),
 * as Playwright itself runs headless tests by default: the same Blink, V8 and network stack without the full
 * browser's machinery, about a third less CPU per test on 2 cores. The benchmarks that measure what a reader meets
 * (Lighthouse, the next chapter) keep the full browser.
 */
export const headlessShellPath =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
