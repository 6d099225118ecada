// A property test of the unlock ledger: random sequences of ticket grants, unlocks by every source, bundles, chapter
// buys, expiries (ends and expiries moved to now in the database), payments (credits as a paid order makes them) and
// refunds (the refunds' take-back of unspent coins), some of them racing each other. After every step every
// invariant of the coin ledger and of the unlock ledger holds. A fixed seed and few runs by default; more with
// UNLOCK_PROPERTY_RUNS (and another seed with UNLOCK_PROPERTY_SEED).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { rowsOf } from '../../shared/rows.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createUnlocksRepository } from './unlocks.repository.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { giveCoins, newBook } from './wallet-test-kit.ts';

const PRICES = [0, 10, 20, 30, 40];

type Step =
  | { op: 'grant'; kind: 'read' | 'presale'; rentalHours: number | null; scoped: boolean }
  | { op: 'unlock'; by: 'coins' | 'wait_free' | 'ticket'; chapter: number }
  | { op: 'bundle' }
  | { op: 'buy'; chapter: number }
  | { op: 'end_rental'; chapter: number }
  | { op: 'expire_ticket' }
  | { op: 'wait_over' }
  | { op: 'pay'; coins: number }
  | { op: 'refund'; most: number };

const chapter = fc.integer({ min: 0, max: PRICES.length - 1 });
const single: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('grant' as const),
    kind: fc.constantFrom('read' as const, 'presale' as const),
    rentalHours: fc.constantFrom(null, 24),
    scoped: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('unlock' as const),
    by: fc.constantFrom('coins' as const, 'wait_free' as const, 'ticket' as const),
    chapter,
  }),
  fc.constant({ op: 'bundle' as const }),
  fc.record({ op: fc.constant('buy' as const), chapter }),
  fc.record({ op: fc.constant('end_rental' as const), chapter }),
  fc.constant({ op: 'expire_ticket' as const }),
  fc.constant({ op: 'wait_over' as const }),
  fc.record({ op: fc.constant('pay' as const), coins: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ op: fc.constant('refund' as const), most: fc.integer({ min: 1, max: 80 }) }),
);
/** One step alone, or two at once (a race). */
const step = fc.oneof(
  { arbitrary: single.map((s) => [s]), weight: 3 },
  { arbitrary: fc.tuple(single, single), weight: 1 },
);

const runs = Number(process.env.UNLOCK_PROPERTY_RUNS ?? 6);
const seed = Number(process.env.UNLOCK_PROPERTY_SEED ?? 20261128);

describeDb('the unlock ledger under random sequences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
  });
  afterAll(() => t?.close());

  it('keeps every coin and unlock invariant after each step of grants, unlocks, expiries, payments and refunds', async () => {
    const unlocks = createUnlocksRepository(t.db);
    const ledger = createLedgerRepository(t.db);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          bundlePercent: fc.constantFrom(0, 20),
          newReaderExtra: fc.constantFrom(0, 1),
          steps: fc.array(step, { minLength: 1, maxLength: 10 }),
        }),
        async ({ bundlePercent, newReaderExtra, steps }) => {
          const { bookId, chapters } = await newBook(t.db, { prices: PRICES, vipFree: false });
          await t.db.execute(sql`
            insert into book_unlock_rules (book_id, wait_minutes, early_access_chapters, bundle_percent, new_reader_extra)
            values (${bookId}::int, 60, 1, ${bundlePercent}::int, ${newReaderExtra}::int)`);
          const { userId } = await registerVisitor(t);
          const chapterAt = (i: number) => chapters[i] ?? { id: 0, price: 0 };

          const run = async (s: Step): Promise<unknown> => {
            switch (s.op) {
              case 'grant':
                return t.db.execute(sql`
                  insert into reading_tickets (grant_id, user_id, kind, rental_hours, scope_book_ids, source, expires_at)
                  values (${`prop:${randomUUID()}`}, ${userId}::int, ${s.kind}, ${s.rentalHours}::int,
                          ${s.scoped ? `{${bookId}}` : null}::int[], 'grant', now() + interval '1 day')`);
              case 'unlock':
                return unlocks.unlock({ userId, bookId, chapterId: chapterAt(s.chapter).id, by: s.by });
              case 'bundle':
                return unlocks.bundle({ userId, bookId, chapterId: chapterAt(0).id });
              case 'buy': {
                const c = chapterAt(s.chapter);
                return c.price > 0
                  ? ledger.buyChapter({ userId, chapterId: c.id, price: c.price })
                  : undefined;
              }
              case 'end_rental':
                return t.db.execute(sql`update chapter_unlocks set ends_at = now()
                  where user_id = ${userId}::int and chapter_id = ${chapterAt(s.chapter).id}::int and ends_at > now()`);
              case 'expire_ticket':
                return t.db.execute(sql`update reading_tickets set expires_at = now()
                  where id = (select id from reading_tickets where user_id = ${userId}::int and spent_at is null
                              order by expires_at, id limit 1)`);
              case 'wait_over':
                return t.db.execute(
                  sql`update unlock_wait_clocks set ready_at = now() where user_id = ${userId}::int`,
                );
              case 'pay':
                return giveCoins(t.db, userId, s.coins);
              case 'refund':
                return t.db.transaction((tx) =>
                  t.app.ports.wallet.takeBackCoins(tx, {
                    transferId: `prop:${randomUUID()}`,
                    userId,
                    most: s.most,
                    memo: 'refund',
                  }),
                );
            }
          };

          for (const racing of steps) {
            await Promise.all(racing.map(run));
            await expectLedgerInvariants(t.db);
            await expectUnlockInvariants(t.db);
            // One live right per chapter: bought, or one live stored unlock (the key makes two impossible).
            const twice = rowsOf(
              await t.db.execute(sql`select chapter_id from (
                  select chapter_id from chapter_purchases where user_id = ${userId}::int
                  union all
                  select chapter_id from chapter_unlocks where user_id = ${userId}::int
                    and (ends_at is null or ends_at > now())) h
                group by chapter_id having count(*) > 1`),
            );
            expect(twice).toEqual([]);
          }
        },
      ),
      { numRuns: runs, seed, endOnFailure: true },
    );
  });
});
