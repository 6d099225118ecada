import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { rowsOf } from './rows.ts';

/** The queries of the database's limit counts (rate_limits) that rate-limiter-flexible does not make itself. */
export function createLimitsRepository(db: Database) {
  return {
    /** Removes up to `batch` counts whose window ended before `now`; answers how many. */
    async sweepEnded(now: Date, batch: number): Promise<number> {
      return rowsOf<{ key: string }>(
        await db.execute(sql`
          delete from ${rateLimits}
          where ${rateLimits.key} in (
            select ${rateLimits.key} from ${rateLimits} where ${lt(rateLimits.expire, now)} limit ${batch}
          )
          returning ${rateLimits.key}`),
      ).length;
    },
  };
}
