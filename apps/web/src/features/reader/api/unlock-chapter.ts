import type { UnlockBy } from '@yueman/contract';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/book/chapter/unlock (dynamic): unlocks a locked chapter by coins, wait-for-free, a ticket or the
 * bundle. The whole envelope comes back: code 999 is a refusal carrying the chapter's unlockOptions now.
 */
export const unlockChapter = (bookId: number, chapterId: number, by: UnlockBy) =>
  call(routes.unlockChapter, { form: { bookId, chapterId, by } });
