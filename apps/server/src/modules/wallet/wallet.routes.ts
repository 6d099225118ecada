import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BuyChapterQuery,
  BuyChapterResult,
  ConsumptionPage,
  ConsumptionQuery,
  Envelope,
} from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../shared/envelope.ts';
import { unauthorized, userUnknown } from '../../shared/errors.ts';
import { isVip } from '../users/sessions.ts';
import * as wallet from './wallet.service.ts';

const tags = ['wallet'];

export async function walletRoutes(app: FastifyInstance, deps: wallet.WalletDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/book/chapter/buy',
    {
      schema: {
        tags,
        summary: '购买章节（价格取自数据库；阅币不足时 code 999）',
        querystring: BuyChapterQuery,
        response: { 200: Envelope(BuyChapterResult) },
      },
    },
    async (req) => {
      // The reader's screen refreshes the user on 101 (spec section 8), as it does for a priced chapter.
      if (!req.user) throw userUnknown();
      const user = req.user;
      return ok(
        await wallet.buyChapter(deps, {
          userId: user.userId,
          isVip: isVip(user),
          chapterId: req.query.chapterId,
        }),
        '购买成功',
      );
    },
  );

  r.get(
    '/api/user/consumption',
    {
      schema: {
        tags,
        summary: '消费记录（充值、赠送、购买章节、开通VIP），每页 20 条，最新在前',
        querystring: ConsumptionQuery,
        response: { 200: Envelope(ConsumptionPage) },
      },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      return ok(await wallet.consumption(deps, req.user.userId, req.query.page ?? 1));
    },
  );
}
