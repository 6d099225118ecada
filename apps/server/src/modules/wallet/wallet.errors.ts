import { badRequest, notFound, paymentNeeded } from '../../shared/errors.ts';

export const SHORT_OF_COINS = '阅币不足，请先充值';

/** Code 999 on chapter/buy: the price and the balance that falls short, for the reader's recharge overlay. */
export const shortOfCoins = (price: number, balance: number) =>
  paymentNeeded(SHORT_OF_COINS, { price, avaliableAmount: balance });

export const chapterNotFound = () => notFound('章节不存在');

// The console's campaigns (限免与折扣).
export const campaignNotFound = () => notFound('活动不存在');
export const campaignBookNotFound = () => badRequest('作品不存在', 'bookId');
export const campaignChaptersInvalid = () => badRequest('所选章节不属于该作品', 'chapterIds');
export const campaignWindowInvalid = (why: string) => badRequest(why, 'endsAt');
export const campaignDiscountInvalid = (why: string) => badRequest(why, 'discountPercent');

// The monthly card (月卡).
export const noCardRunning = () => badRequest('月卡未开通或已到期，开通月卡后每天可领取奖励');
