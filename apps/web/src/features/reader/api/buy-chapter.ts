import { useMutation } from '@tanstack/react-query';
import { call, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/book/chapter/buy?chapterId= (dynamic). The whole envelope comes back: result true is bought (or
 * already owned, charged 0); code 999 is short of coins, with the price and the balance; 101 no user.
 */
export const buyChapter = (chapterId: number) => call(routes.buyChapter, { query: { chapterId } });

export const useBuyChapter = () => useMutation({ mutationFn: buyChapter });
