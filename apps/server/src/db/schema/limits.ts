import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The counters of the rate limits and attempt limits (shared/limiter-store.ts) when they live in the database:
// rate-limiter-flexible's RateLimiterDrizzle reads and writes these three columns by these names. One row per
// counter and key (`<counter>:<key>`, e.g. `password:address:203.0.113.9`), its window ending at `expire`.
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().primaryKey(),
    points: integer().notNull().default(0),
    expire: timestamp({ withTimezone: true }),
  },
  (t) => [index('rate_limits_expire').on(t.expire)],
);
