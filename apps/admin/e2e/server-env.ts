// The server the console's browser tests run against (playwright.config.ts starts it): its port and data dir.
export const port = Number(process.env.E2E_ADMIN_PORT ?? 18950);
export const root = new URL('../../..', import.meta.url).pathname;
/** Relative to the repository root, where the server and `npm run operator` run. */
export const dataDir = `.tmp/e2e-admin-data-${port}`;
