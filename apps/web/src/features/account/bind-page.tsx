import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { userInfoQuery } from '../../lib/api/user-info.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { useBindMobile } from './api/bind-mobile.ts';
import { AccountForm, AccountPage, InputField, useText } from './components/account-layout.tsx';
import { showAlert, showDone } from './show-alert.ts';

/** Spec section 9: 11 digits starting with 1. */
const MOBILE = /^1\d{10}$/;

function validate(mobile: string) {
  if (mobile === '') return '请输入手机号';
  if (!MOBILE.test(mobile)) return '请输入正确的手机号';
  return null;
}

/** /user/bind: bind a mobile number, which can then be used to log in. */
export default function BindPage() {
  const bound = useUserStore((s) => s.userInfo?.mobile ?? '');
  const mobile = useText();
  const bind = useBindMobile();
  const queryClient = useQueryClient();

  const submit = () => {
    const value = mobile.value.trim();
    const problem = validate(value);
    if (problem) return void showAlert(problem);
    bind.mutate(value, {
      onSuccess: (res) => {
        // Spec section 8: a refusal shows the server's message in a dialog.
        if (!res.result)
          return void Dialog.alert({ content: res.msg || '绑定失败，请稍后重试', confirmText: '确定' });
        useUserStore.getState().setUser(res.data);
        queryClient.setQueryData(userInfoQuery().queryKey, res.data);
        mobile.onChange('');
        showDone('手机绑定成功');
      },
      onError: () => void Dialog.alert({ content: '绑定失败，请稍后重试', confirmText: '确定' }),
    });
  };

  return (
    <AccountPage title="绑定手机" intro="绑定手机后，可以用手机号和密码在其他设备上登录，阅币和VIP不会丢失。">
      {bound && (
        <p className="account-bound" data-testid="bound-mobile">
          已绑定手机：<b>{bound}</b>
        </p>
      )}
      <AccountForm onSubmit={submit} submitText={bound ? '更换绑定' : '绑定'} loading={bind.isPending}>
        <InputField
          label="手机号"
          type="tel"
          inputMode="numeric"
          placeholder="请输入11位手机号"
          autoComplete="tel"
          maxLength={11}
          {...mobile}
        />
      </AccountForm>
    </AccountPage>
  );
}
