import type { ReadingProgress } from '@yueman/contract';
import { notFound } from '../../shared/errors.ts';
import type { ProgressRepository } from './reading-progress.repository.ts';

/** Saves where a reader is in a book (a later position kept wins); answers what the account holds afterwards. */
export async function saveProgress(
  deps: { repo: ProgressRepository },
  { userId, progress, now = Date.now() }: { userId: number; progress: ReadingProgress; now?: number },
): Promise<ReadingProgress> {
  // A device clock ahead of ours would win every later write: never later than now.
  const readAt = Math.min(progress.readAt, now);
  const kept = await deps.repo.save(userId, { ...progress, readAt });
  if (!kept) throw notFound('书籍不存在');
  return kept;
}

/** Where the reader stopped in each book (or in one), newest first. */
export function listProgress(
  deps: { repo: ProgressRepository },
  { userId, bookId }: { userId: number; bookId?: number },
): Promise<ReadingProgress[]> {
  return deps.repo.list(userId, bookId);
}
