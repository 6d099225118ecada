// Debian's Chromium, as every browser test and the Lighthouse benchmark start it: no downloaded browser, nothing
// that reaches the network on its own (updates, sync, field trials), no sandbox (CI runs as root).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
