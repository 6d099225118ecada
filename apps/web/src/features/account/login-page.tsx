import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useUserStore } from '../../lib/user-store.ts';
import { useLogin } from './api/login.ts';
import { AccountForm, AccountPage, Field, TextInput } from './components/account-layout.tsx';
import { showAlert } from './show-alert.ts';

/** Spec section 5: what is missing, in the order the reader fills the form. */
function validate(account: string, password: string) {
  if (account === '') return '请输入手机号';
  if (password === '') return '请输入密码';
  return null;
}

/** /user/login: log in with an account (or bound mobile) and password; success shows a modal, then /user. */
export default function LoginPage() {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const submit = () => {
    const name = account.trim();
    const problem = validate(name, password);
    if (problem) return void showAlert(problem);
    login.mutate(
      { account: name, password },
      {
        onSuccess: async (res) => {
          // A rate limit says so; every other refusal is the spec's one message (section 8).
          if (!res.result) return void showAlert(res.code === 429 && res.msg ? res.msg : '账户或密码不正确');
          useUserStore.getState().setUser(res.data);
          // The account page shows the password of the account in use: the one just typed.
          useUserStore.setState({ password });
          // Anything personal cached for the previous user is out of date.
          void queryClient.invalidateQueries();
          await Dialog.alert({ content: '登录成功', confirmText: '确定' });
          navigate('/user', { replace: true });
        },
        onError: () => showAlert('网络异常，请稍后重试'),
      },
    );
  };

  return (
    <AccountPage title="登录" intro="使用账号或已绑定的手机号登录，阅币和VIP跟随账号。">
      <AccountForm onSubmit={submit} submitText="登录" loading={login.isPending}>
        <Field label="账号">
          <TextInput
            placeholder="请输入账号或手机号"
            value={account}
            onChange={setAccount}
            autoComplete="username"
            maxLength={64}
          />
        </Field>
        <Field label="密码">
          <TextInput
            type="password"
            placeholder="请输入密码"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            maxLength={128}
          />
        </Field>
      </AccountForm>
      <nav className="account-links">
        <Link to="/user/find-account" replace>
          忘记账号？找回充值账号
        </Link>
      </nav>
    </AccountPage>
  );
}
