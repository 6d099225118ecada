import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Code, type FoundAccount } from '@yueman/contract';
import { DatePicker, Dialog } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { userPath } from '../../lib/paths.ts';
import { adoptFoundAccount } from './adopt-found-account.ts';
import { useFindAccount } from './api/find-account.ts';
import { chinaToday, toChargeTime, toLabel } from './china-date.ts';
import { AccountForm, AccountPage, Field, InputField, useText } from './components/account-layout.tsx';
import { FoundAccountCard } from './components/found-account-card.tsx';
import { OrderNoHelp } from './components/order-no-help.tsx';
import { showAlert, showDone } from './show-alert.ts';

const NOT_FOUND = '对不起，您的充值账号未找到，您可以联系客服帮忙找回（客服在线时间：9:30 ~ 21:00）';
const YEARS_BACK = 3;

const dayLabel = (type: string, value: number) =>
  type === 'year' ? `${value}年` : type === 'month' ? `${value}月` : type === 'day' ? `${value}日` : value;

/**
 * /user/find-account: recover the recharge account by the China date of a payment, its merchant order number,
 * which only the payer holds (a date alone would let anyone take an account), and the amount paid (a number seen
 * elsewhere is not enough alone).
 */
export default function FindAccountPage() {
  const today = useMemo(chinaToday, []);
  const min = useMemo(() => new Date(today.getFullYear() - YEARS_BACK, 0, 1), [today]);
  const [date, setDate] = useState<Date | null>(null);
  const orderNo = useText();
  const payAmount = useText();
  const [picking, setPicking] = useState(false);
  const [found, setFound] = useState<FoundAccount | null>(null);
  const find = useFindAccount();
  const adopt = useMutation({ mutationFn: adoptFoundAccount });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const submit = () => {
    if (!date) return void showAlert('请选择您的充值扣款日期');
    if (orderNo.value.trim() === '') return void showAlert('请输入订单号');
    if (payAmount.value.trim() === '') return void showAlert('请输入支付金额');
    find.mutate(
      { chargeTime: toChargeTime(date), orderNo: orderNo.value.trim(), payAmount: payAmount.value.trim() },
      {
        onSuccess: (res) => {
          if (!res.result) {
            const content = res.code === Code.notFound ? NOT_FOUND : res.msg || '查询失败，请稍后重试';
            return void Dialog.alert({ content, confirmText: '确定' });
          }
          setFound(res.data);
          // The session is already the found account's: use it at once, so no call goes out as the old one.
          adopt.mutate(res.data, { onSuccess: () => void queryClient.invalidateQueries() });
        },
        onError: () => void Dialog.alert({ content: '查询失败，请稍后重试', confirmText: '确定' }),
      },
    );
  };

  const save = async () => {
    if (!found) return;
    if (!adopt.isSuccess) {
      try {
        await adopt.mutateAsync(found);
        void queryClient.invalidateQueries();
      } catch {
        return void showAlert('登录失败，请稍后重试');
      }
    }
    showDone('登录成功');
    navigate(userPath(), { replace: true });
  };

  return (
    <AccountPage
      title="找回充值账号"
      intro="充值过却找不到账号？选择充值扣款的日期，填写该笔支付的商户订单号和支付金额，即可找回充值时使用的账号。"
      hours="9:30 ~ 21:00"
    >
      {found ? (
        <FoundAccountCard found={found} saving={adopt.isPending} onSave={() => void save()} />
      ) : (
        <AccountForm onSubmit={submit} submitText="找回账号" loading={find.isPending}>
          <Field label="扣款日期">
            <button type="button" className="account-picker" onClick={() => setPicking(true)}>
              {date ? toLabel(date) : <span className="account-placeholder">请选择您的充值扣款日期</span>}
            </button>
          </Field>
          <InputField
            label="订单号"
            placeholder="请输入商户订单号"
            autoComplete="off"
            maxLength={64}
            {...orderNo}
          />
          <InputField
            label="支付金额"
            placeholder="请输入实付金额（元）"
            autoComplete="off"
            inputMode="decimal"
            maxLength={16}
            {...payAmount}
          />
        </AccountForm>
      )}
      <DatePicker
        title="充值扣款日期"
        visible={picking}
        onClose={() => setPicking(false)}
        min={min}
        max={today}
        defaultValue={today}
        value={date}
        onConfirm={(d) => setDate(d)}
        renderLabel={dayLabel}
      />
      {!found && <OrderNoHelp />}
    </AccountPage>
  );
}
