// A JSON null the console sends for a nullable number stays null through the server's validation, and a 0 stays 0.
// Fastify's Ajv coerces types (a query string's '3' is 3); in a union it coerced in the member it tried first: null
// became 0 (a campaign's 全部渠道 was branch 0, a ticket's permanent rental 0 hours), [null] for an array.
import { campaignsRoutes, Nullable, unlockConsoleRoutes } from '@yueman/contract/admin';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';

/** A server with Fastify's own validation (as app.ts keeps it) that answers the body it validated. */
async function echo(body: object, query?: object) {
  const app = Fastify();
  app.post('/echo', { schema: { body, ...(query ? { querystring: query } : {}) } }, async (req) => ({
    body: req.body,
    query: req.query,
  }));
  await app.ready();
  return app;
}

describe('nullable inputs', () => {
  it('keeps null as null for a nullable integer, array and string, and takes their values', async () => {
    const app = await echo(
      Type.Object({
        n: Nullable(Type.Integer({ minimum: 1 })),
        list: Nullable(Type.Array(Type.Integer())),
        text: Nullable(Type.String()),
        zero: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
      }),
    );
    // A 0 and an empty text are values, not null.
    const zero = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { n: 1, list: [], text: '', zero: 0 },
    });
    expect(zero.json().body).toEqual({ n: 1, list: [], text: '', zero: 0 });
    const nulls = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { n: null, list: null, text: null },
    });
    expect(nulls.json().body).toEqual({ n: null, list: null, text: null });
    const values = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { n: 3, list: [1, 2], text: 'a' },
    });
    expect(values.json().body).toEqual({ n: 3, list: [1, 2], text: 'a' });
    // A wrong value is still refused.
    expect(
      (await app.inject({ method: 'POST', url: '/echo', payload: { n: 0, list: null, text: null } }))
        .statusCode,
    ).toBe(400);
    await app.close();
  });

  it('still reads a query string’s number as a number', async () => {
    const app = await echo(Type.Object({}), Type.Object({ n: Nullable(Type.Integer()) }));
    const res = await app.inject({ method: 'POST', url: '/echo?n=7', payload: {} });
    expect(res.json().query).toEqual({ n: 7 });
    await app.close();
  });

  it('keeps a campaign’s null branch and discount, and a ticket grant’s null rental and scope', async () => {
    const campaign = await echo(campaignsRoutes.addCampaign.body);
    const sent = {
      kind: 'discount',
      title: '周末限免',
      bookId: 1,
      chapterIds: null,
      branchId: null,
      discountPercent: null,
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2026-01-02T00:00:00.000Z',
    };
    const res = await campaign.inject({ method: 'POST', url: '/echo', payload: sent });
    expect(res.json().body).toEqual(sent);
    await campaign.close();

    const tickets = await echo(unlockConsoleRoutes.grantReaderTickets.body);
    const grant = {
      kind: 'read',
      count: 2,
      expiresInDays: 7,
      scope: null,
      rentalHours: null,
      reason: '补偿',
      requestId: 'grant-0001',
    };
    const granted = await tickets.inject({ method: 'POST', url: '/echo', payload: grant });
    expect(granted.json().body).toEqual(grant);
    await tickets.close();
  });
});
