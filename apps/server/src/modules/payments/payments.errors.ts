import { badRequest, forbidden, notFound } from '../../shared/errors.ts';

/** Pay apply's refusals: each names the parameter that does not hold, in the reader's words. */
export const noPackAtAmount = () => badRequest('参数 rechargerAmount 不正确：没有对应的套餐');
export const packUnavailable = () => badRequest('参数 payPurposeId 不正确：套餐不存在或已下架');
export const packNotOfPurpose = () => badRequest('参数 payPurpose 与套餐类型不符');
export const channelUnavailable = () => badRequest('参数 payChannel 不正确：支付通道不存在或维护中');
export const channelNotForClient = () => badRequest('参数 payChannel 不适用于当前客户端 appType');
export const channelUnderMaintenance = () => badRequest('参数 payChannel 不正确：支付通道维护中');
export const openInBrowserToPay = () =>
  badRequest('参数 payChannel 不正确：微信内无法使用该支付方式，请在浏览器中打开后支付');
export const wrongAmount = (payAmount: number) =>
  badRequest(`参数 rechargerAmount 不正确：应付 ${payAmount} 分`);

/** Pay apply is a navigation from our own pages, never another site's link or form. */
export const notFromOurPages = () => forbidden('请从本站页面发起支付');

// The console's refunds.
export const orderNotFound = () => notFound('订单不存在');
export const orderNotPaid = () => badRequest('订单未支付，不能退款');
export const gatewayCannotRefund = () =>
  badRequest('该订单的支付渠道不支持原路退款，请在商户平台退款后标记线下已退款');
export const gatewayRefundsItself = () => badRequest('该订单可以原路退款，不能标记线下已退款');
export const refundTooLarge = (left: number) =>
  badRequest(`退款金额超过可退金额（还可退 ${(left / 100).toFixed(2)} 元）`, 'amount');

// The console's packs and channels.
export const packNotFound = () => notFound('套餐不存在');
export const payChannelNotFound = () => notFound('支付渠道不存在');
export const offerWindowInvalid = () =>
  badRequest('首充加赠需要同时填写开始和结束时间，且结束晚于开始', 'firstPayEndsAt');
export const vipPackWithBonus = () => badRequest('VIP 与月卡套餐没有赠送阅币，请把赠送填 0', 'presentCount');
