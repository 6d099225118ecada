import type { FoundAccount } from '@yueman/contract';
import { Button } from 'antd-mobile';
import { CopyField } from '../../../components/copy-field.tsx';
import { copyText } from '../show-alert.ts';

const FOUND_FIELDS = [
  ['账号', 'account', 'found-account'],
  ['密码', 'password', 'found-password'],
] as const;
const copy = (value: string, label: string) => void copyText(value, label);

/** The account found and its new password, to copy, then 保存并登录. */
export function FoundAccountCard({
  found,
  saving,
  onSave,
}: {
  found: FoundAccount;
  saving: boolean;
  onSave(): void;
}) {
  return (
    <section className="account-found" aria-label="找到的账号">
      <h2>已找到您的充值账号</h2>
      <p className="account-found-tip">密码已重新生成，请牢记或截图保存。</p>
      <dl className="account-card account-found-fields">
        {FOUND_FIELDS.map(([label, key, testId]) => (
          <CopyField
            key={key}
            label={label}
            value={found[key]}
            testId={testId}
            className="account-found-field"
            onCopy={copy}
          />
        ))}
      </dl>
      <Button
        block
        color="primary"
        shape="rounded"
        size="large"
        className="account-submit"
        loading={saving}
        onClick={onSave}
      >
        保存并登录
      </Button>
    </section>
  );
}
