import {
  type AppType,
  isAppShell,
  type PayApplyQuery,
  type PayConfig,
  type PaySubType,
} from '@yueman/contract';
import { Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { payPagePath } from '../../../lib/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useUserStore } from '../../../lib/user-store.ts';
import { markPayPageVisited } from '../after-payment/pay-visited.ts';
import { payApplyUrl, usePayApply } from '../api/apply-pay.ts';
import { handToNativeBridge } from '../native-bridge.ts';
import { payAmount } from '../pay-helpers.ts';

/** The dynamic API's base as an absolute address (an empty base is this page's origin). */
const dynamicApiUrl = () =>
  runtimeConfig.dynamicApiBase
    ? new URL(runtimeConfig.dynamicApiBase, location.origin).href.replace(/\/$/, '')
    : location.origin;

/**
 * Confirming the 2-minute warning starts the payment (spec section 4). A web channel sets the pay-visited flag
 * and navigates the browser to the pay apply address (the server answers 302 to the cashier). An app channel
 * fetches the order, sets the flag once there is one, and hands it to a native bridge, or else opens its
 * cashier (payUrl) in the pay page.
 */
export function useStartPayment(appType: AppType, returnPath: string) {
  const navigate = useNavigate();
  const apply = usePayApply();
  const [leaving, setLeaving] = useState(false);
  // Back from the cashier through the browser's page cache: the page is as it was left, mid-start.
  useEffect(() => {
    const reset = (e: PageTransitionEvent) => e.persisted && setLeaving(false);
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  const start = async (pack: PayConfig, channel: PaySubType) => {
    const { userInfo, branchId, fromDomain } = useUserStore.getState();
    const query: PayApplyQuery = {
      rechargerAmount: payAmount(pack, channel),
      payPurposeId: pack.id,
      payChannel: channel.subTypeCode,
      payPurpose: pack.type,
      userId: userInfo?.userId,
      branchId,
      fromDomain,
      appType,
      // A path: the server makes it absolute on the public origin and refuses anything off it (no open redirect).
      vueReturnUrl: returnPath,
      dynamicApiUrl: dynamicApiUrl(),
    };
    if (!isAppShell(appType)) {
      markPayPageVisited();
      setLeaving(true);
      location.assign(payApplyUrl(query));
      return;
    }
    try {
      const order = await apply.mutateAsync(query);
      markPayPageVisited();
      if (!handToNativeBridge(order, new URL(returnPath, location.origin).href))
        navigate(payPagePath(order.payUrl));
    } catch (err) {
      Toast.show({ content: err instanceof Error && err.message ? err.message : '下单失败，请稍后重试' });
    }
  };

  return { start, starting: leaving || apply.isPending };
}
