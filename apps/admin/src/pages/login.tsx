import { LockOutlined, ReadOutlined, UserOutlined } from '@ant-design/icons';
import { LoginForm, ProFormText } from '@ant-design/pro-components';
import type { Operator } from '@yueman/contract/admin';
import { Alert } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, adminRoutes, call } from '../api.ts';
import { firstPageOf } from '../menu.tsx';
import { useSession } from '../session.tsx';

/** Where to go after signing in: the page the operator was sent away from, if it is one of ours. */
function backTo(from: string | null, operator: Operator) {
  if (from?.startsWith('/') && !from.startsWith('//') && !from.startsWith('/login')) return from;
  return firstPageOf(operator.role);
}

export default function LoginPage() {
  const [error, setError] = useState<string>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { setOperator } = useSession();

  const submit = async (values: { name: string; password: string }) => {
    setError(undefined);
    try {
      const operator = await call(adminRoutes.login, { body: values }, { own401: true });
      setOperator(operator);
      navigate(backTo(params.get('from'), operator), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 401) setError(err.message);
      else if (!(err instanceof ApiError)) throw err;
    }
    return true;
  };

  return (
    <div className="login-page">
      <div style={{ width: 420 }}>
        <LoginForm<{ name: string; password: string }>
          logo={<ReadOutlined style={{ fontSize: 40, color: '#1677ff' }} />}
          title="阅漫管理后台"
          subTitle="运营人员登录"
          onFinish={submit}
          submitter={{ searchConfig: { submitText: '登录' } }}
        >
          <ProFormText
            name="name"
            fieldProps={{ size: 'large', prefix: <UserOutlined />, autoComplete: 'username' }}
            placeholder="用户名"
            rules={[{ required: true, message: '请输入用户名' }]}
          />
          <ProFormText.Password
            name="password"
            fieldProps={{ size: 'large', prefix: <LockOutlined />, autoComplete: 'current-password' }}
            placeholder="密码"
            rules={[{ required: true, message: '请输入密码' }]}
          />
        </LoginForm>
        {error && (
          <div style={{ padding: '0 32px' }}>
            <Alert type="error" showIcon message={error} data-testid="login-error" />
          </div>
        )}
      </div>
    </div>
  );
}
