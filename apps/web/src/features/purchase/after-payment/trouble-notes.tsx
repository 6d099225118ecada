import { useUserStore } from '../../../lib/user-store.ts';
import { troubleSteps } from './trouble-steps.ts';

const SERVICE_HOURS = '10:00-21:00';

/** After 遇到问题: the steps for this client, the reader's account and how to reach customer service. */
export function TroubleNotes({ account }: { account: string }) {
  const trouble = troubleSteps();
  const { commonInfo } = useUserStore.getState();
  return (
    <div className="after-pay-body" data-testid="after-pay-trouble">
      <p className="after-pay-client">请按以下步骤排查（{trouble.title}）：</p>
      <ol className="after-pay-steps">
        {trouble.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      <p className="after-pay-service">
        您的账号：<b>{account || '—'}</b>
        <br />
        客服在线时间：{SERVICE_HOURS}
        {commonInfo?.customerServiceQQ && (
          <>
            <br />
            客服QQ：{commonInfo.customerServiceQQ}
          </>
        )}
        {commonInfo?.customerServiceEmail && (
          <>
            <br />
            客服邮箱：{commonInfo.customerServiceEmail}
          </>
        )}
      </p>
    </div>
  );
}
