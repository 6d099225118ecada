import { useQueryClient } from '@tanstack/react-query';
import { Code } from '@yueman/contract';
import { Dialog } from 'antd-mobile';
import { Link, useNavigate } from 'react-router';
import { pullFollows } from '../../lib/follow-sync.ts';
import { findAccountPath, userPath } from '../../lib/paths.ts';
import { pullPositions } from '../../lib/progress-sync.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { useLogin } from './api/login.ts';
import {
  AccountForm,
  AccountPage,
  InputField,
  PasswordField,
  useText,
} from './components/account-layout.tsx';
import { showAlert } from './show-alert.ts';

/** Spec section 5: what is missing, in the order the reader fills the form. */
function validate(account: string, password: string) {
  if (account === '') return '请输入手机号';
  if (password === '') return '请输入密码';
  return null;
}

/** /user/login: log in with an account (or bound mobile) and password; success shows a modal, then /user. */
export default function LoginPage() {
  const account = useText();
  const password = useText();
  const login = useLogin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const submit = () => {
    const name = account.value.trim();
    const problem = validate(name, password.value);
    if (problem) return void showAlert(problem);
    login.mutate(
      { account: name, password: password.value },
      {
        onSuccess: async (res) => {
          // A rate limit says so; every other refusal is the spec's one message (section 8).
          if (!res.result)
            return void showAlert(
              res.code === Code.tooManyRequests && res.msg ? res.msg : '账户或密码不正确',
            );
          useUserStore.getState().setUser(res.data);
          // The account page shows the password of the account in use: the one just typed.
          useUserStore.setState({ password: password.value });
          // Anything personal cached for the previous user is out of date.
          void queryClient.invalidateQueries();
          // This account's reading positions from its other devices.
          void pullPositions().catch(() => undefined);
          // This device's follows join the account's, and the account's come here.
          void pullFollows({ all: true }).catch(() => undefined);
          await Dialog.alert({ content: '登录成功', confirmText: '确定' });
          navigate(userPath(), { replace: true });
        },
        onError: () => showAlert('网络异常，请稍后重试'),
      },
    );
  };

  return (
    <AccountPage title="登录" intro="使用账号或已绑定的手机号登录，阅币和VIP跟随账号。">
      <AccountForm onSubmit={submit} submitText="登录" loading={login.isPending}>
        <InputField
          label="账号"
          placeholder="请输入账号或手机号"
          maxLength={64}
          autoComplete="username"
          {...account}
        />
        <PasswordField label="密码" placeholder="请输入密码" autoComplete="current-password" {...password} />
      </AccountForm>
      <nav className="account-links">
        <Link to={findAccountPath()} replace>
          忘记账号？找回充值账号
        </Link>
      </nav>
    </AccountPage>
  );
}
