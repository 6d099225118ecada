import type { PayApplyApp } from '@yueman/contract';

interface WeixinJSBridge {
  invoke(name: string, params: object, callback: (res: { err_msg?: string }) => void): void;
}
interface AlipayJSBridge {
  call(name: string, params: object, callback: (res: { resultCode?: string }) => void): void;
}

declare global {
  interface Window {
    WeixinJSBridge?: WeixinJSBridge;
    AlipayJSBridge?: AlipayJSBridge;
  }
}

/**
 * Hands an app-channel order to the native side that can pay it: the Android shell's bridge first (it knows
 * every channel), then the wechat or alipay bridge for their own channels. Answers false when this client has
 * none; the caller then opens the cashier (payUrl) in the pay page. The bridges get the order as our server
 * answers it; a real merchant integration adds the provider's signed fields to PayApplyApp.
 */
export function handToNativeBridge(order: PayApplyApp, returnUrl: string): boolean {
  if (typeof window.YuemanShell?.pay === 'function') {
    window.YuemanShell.pay(JSON.stringify(order), returnUrl);
    return true;
  }
  // The chat apps' bridges answer in a callback when their payment sheet closes: back to where we return.
  const back = () => location.assign(returnUrl);
  if (order.superiorCode === 'wechat_pay' && window.WeixinJSBridge) {
    window.WeixinJSBridge.invoke('getBrandWCPayRequest', order, back);
    return true;
  }
  if (order.superiorCode === 'alipay' && window.AlipayJSBridge) {
    window.AlipayJSBridge.call('tradePay', { tradeNO: order.orderNo }, back);
    return true;
  }
  return false;
}
