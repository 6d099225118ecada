import { notFound, paymentNeeded } from '../../shared/errors.ts';

export const SHORT_OF_COINS = '阅币不足，请先充值';

/** Code 999 on chapter/buy: the price and the balance that falls short, for the reader's recharge overlay. */
export const shortOfCoins = (price: number, balance: number) =>
  paymentNeeded(SHORT_OF_COINS, { price, avaliableAmount: balance });

export const chapterNotFound = () => notFound('章节不存在');
