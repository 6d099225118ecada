// The console's calls are the contract's: every /api/admin/ route the server registers is an entry of adminRoutes
// (packages/contract src/admin), tagged admin in the OpenAPI document, with the answer its entry documents.
import { adminRoutes } from '@yueman/contract/admin';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';

type Operation = { tags?: string[]; responses?: Record<string, { content?: Record<string, unknown> }> };

describeDb('the console’s calls in the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t?.close());

  it('registers every /api/admin/ route from an entry of adminRoutes, tagged admin, with its answer’s schema', async () => {
    await t.app.ready();
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const served = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
      );
    const entries = Object.values(adminRoutes).map(
      (route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`,
    );
    expect(served.map((s) => s.key).sort()).toEqual([...entries].sort());
    for (const { key, op } of served) {
      expect(op.tags, key).toEqual(['admin']);
      const success = op.responses?.['200'] ?? op.responses?.['202'];
      // A documented answer: the envelope's JSON schema, or the bytes of a preview.
      expect(Object.keys(success?.content ?? {}), key).toHaveLength(1);
    }
  });
});
