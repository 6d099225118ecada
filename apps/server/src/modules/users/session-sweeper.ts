import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import type { UsersRepository } from './users.repository.ts';

const SWEEP_EVERY_MS = 3600 * 1000;

/**
 * Expired sessions are no use to anyone and only grow the table: this removes them, hourly and once at start.
 * Deleting rows that already ended is harmless if two servers do it at once.
 */
export function createSessionSweeper(opts: { repo: UsersRepository; log: FastifyBaseLogger }) {
  const sweep = (now = new Date()) => opts.repo.deleteExpiredSessions(now);
  const loop = backgroundLoop({
    name: 'session-sweeper',
    intervalMs: SWEEP_EVERY_MS,
    run: async () => {
      const removed = await sweep();
      if (removed > 0) opts.log.info({ removed }, 'expired sessions removed');
      return false;
    },
    log: opts.log,
  });
  return { sweep, loop };
}
