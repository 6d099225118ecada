import type { Follow, FollowChange } from '@yueman/contract';
import type { FollowsRepository, PileReached } from './follows.repository.ts';

/** The books the reader follows, latest followed first, each with its newest chapter and what is unread. */
export function listFollows(
  deps: { repo: FollowsRepository },
  { userId }: { userId: number },
): Promise<Follow[]> {
  return deps.repo.list(userId);
}

/** Follows, unfollows, marks seen or sets 攒更 (in order); answers the account's follows afterwards. */
export async function saveFollows(
  deps: { repo: FollowsRepository },
  { userId, changes, now = new Date() }: { userId: number; changes: readonly FollowChange[]; now?: Date },
): Promise<Follow[]> {
  await deps.repo.save(userId, changes, now);
  return deps.repo.list(userId);
}

/** How many reached piles one look answers at most: the notices take them a batch at a time. */
const PILES_PER_LOOK = 500;

/** The follows whose 攒更 is reached now (the notice job tells each reader once, then calls `pileTold`). */
export function pilesReached(
  deps: { repo: FollowsRepository },
  limit = PILES_PER_LOOK,
): Promise<PileReached[]> {
  return deps.repo.pilesReached(limit);
}
