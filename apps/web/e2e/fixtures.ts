import { type BrowserContext, type BrowserContextOptions, test as base, type Page } from '@playwright/test';
import { openAsVisitor } from './support.ts';

export { expect } from '@playwright/test';

interface Fixtures {
  /** Another device: a page in a browser context of its own (the project's phone, or `options`). */
  device: (options?: BrowserContextOptions) => Promise<Page>;
  /** Another reader: a new phone on `path`, once the app has registered its visitor. */
  newVisitor: (path: string) => Promise<Page>;
}

/** The specs' `test`: Playwright's, with the fixtures above; the contexts they open close after the test. */
export const test = base.extend<Fixtures>({
  device: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
  newVisitor: async ({ device }, use) => {
    await use(async (path) => {
      const page = await device();
      await openAsVisitor(page, path);
      return page;
    });
  },
});
