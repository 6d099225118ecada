import { LogoutOutlined, ReadOutlined, UserOutlined } from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import type { Role } from '@yueman/contract/admin';
import { Button, Result, Space, Spin, Tag } from 'antd';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { adminRoutes, call, shown } from './api.ts';
import { MENU } from './menu.tsx';
import { ROLE_NAMES } from './names.ts';
import { useSession } from './session.tsx';

/** The signed-in screens: the side menu of the role's screens, the operator and 退出登录 at the top right. */
export function Shell() {
  const { operator, setOperator } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (operator) return;
    // 401 opens the login page (api.ts), keeping this one to come back to.
    shown(call(adminRoutes.me, {})).then((me) => {
      if (me) setOperator(me);
    });
  }, [operator, setOperator]);

  if (!operator) {
    return (
      <div style={{ padding: 120, textAlign: 'center' }}>
        <Spin size="large" />
      </div>
    );
  }

  const logout = async () => {
    await shown(call(adminRoutes.logout, {}));
    setOperator(undefined);
    navigate('/login', { replace: true });
  };

  const routes = MENU.filter((m) => m.roles.includes(operator.role)).map(({ roles: _, ...entry }) => entry);

  return (
    <ProLayout
      title="阅漫管理后台"
      logo={<ReadOutlined style={{ fontSize: 24, color: '#1677ff' }} />}
      layout="mix"
      fixSiderbar
      fixedHeader
      locale="zh-CN"
      siderWidth={200}
      route={{ path: '/', routes }}
      location={{ pathname }}
      menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
      onMenuHeaderClick={() => navigate('/books')}
      actionsRender={() => [
        <Space key="me" size={8} data-testid="current-operator">
          <UserOutlined />
          <span>{operator.name}</span>
          <Tag color="blue">{ROLE_NAMES[operator.role]}</Tag>
        </Space>,
        <Button key="logout" type="link" icon={<LogoutOutlined />} onClick={logout}>
          退出登录
        </Button>,
      ]}
      token={{ header: { heightLayoutHeader: 56 } }}
    >
      <Suspense
        fallback={
          <div style={{ padding: 80, textAlign: 'center' }}>
            <Spin />
          </div>
        }
      >
        <Outlet />
      </Suspense>
    </ProLayout>
  );
}

/** A screen the operator's role does not use: said so (the menu does not offer it; the server refuses anyway). */
export function Guard({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { operator } = useSession();
  if (operator && !roles.includes(operator.role)) {
    return <Result status="403" title="无权访问" subTitle="当前角色无权进行此操作" />;
  }
  return children;
}
