import { Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { userPath } from '../../lib/paths.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { useModifyPassword } from './api/modify-password.ts';
import { AccountForm, AccountPage, PasswordField, useText } from './components/account-layout.tsx';
import { showAlert } from './show-alert.ts';

/** Spec section 5; the spec sets no length or complexity rule, the server may (its message is shown). */
function validate(password: string, confirm: string) {
  if (password === '') return '请输入密码';
  if (confirm === '') return '请确认密码';
  if (password !== confirm) return '密码不一致，请确认';
  return null;
}

/** /user/password: a new password, typed twice; the account page shows it afterwards. */
export default function PasswordPage() {
  const password = useText();
  const confirm = useText();
  const [serverError, setServerError] = useState('');
  const modify = useModifyPassword();
  const navigate = useNavigate();

  const submit = () => {
    setServerError('');
    const problem = validate(password.value, confirm.value);
    if (problem) return void showAlert(problem);
    modify.mutate(password.value, {
      onSuccess: async (res) => {
        // Spec section 8: the server's message shows in the form.
        if (!res.result) return setServerError(res.msg || '密码更新失败，请稍后重试');
        useUserStore.setState({ password: password.value });
        await Dialog.alert({
          title: '密码修改成功',
          content: '请牢记新密码，在其他设备上需要用新密码重新登录。',
          confirmText: '确定',
        });
        navigate(userPath(), { replace: true });
      },
      onError: () => void Dialog.alert({ content: '密码更新失败，请稍后重试', confirmText: '确定' }),
    });
  };

  return (
    <AccountPage title="修改密码" intro="修改后，本机保持登录，其他设备需要用新密码重新登录。">
      <AccountForm onSubmit={submit} submitText="确认修改" loading={modify.isPending} error={serverError}>
        <PasswordField label="新密码" placeholder="请输入新密码" {...password} />
        <PasswordField label="确认密码" placeholder="请再次输入新密码" {...confirm} />
      </AccountForm>
    </AccountPage>
  );
}
