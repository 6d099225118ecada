import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, PageContainer, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import type { Operator, Role } from '@yueman/contract/admin';
import { App, Button, Form, Popconfirm, Select, Space, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { dateTime, inChinaTime } from '../format.ts';
import { ROLE_NAMES, ROLES } from '../names.ts';
import { PasswordShownOnce } from '../password-shown-once.tsx';
import { useSession } from '../session.tsx';

const roleOptions = ROLES.map((r) => ({ label: `${ROLE_NAMES[r]}（${r}）`, value: r }));

/** The console's operators (owners only): add one, change a role, disable, reset a password (shown once). */
export default function OperatorsPage() {
  const { message } = App.useApp();
  const { operator: me } = useSession();
  const [rows, setRows] = useState<Operator[]>();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ name: string; password: string }>();
  const [form] = Form.useForm<{ name: string; role: Role }>();

  const load = useCallback(async () => {
    setRows((await shown(call(adminRoutes.operators, {}))) ?? []);
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const change = async (op: Operator, body: { role?: Role; disabled?: boolean }) => {
    if (await shown(call(adminRoutes.updateOperator, { params: { id: op.id }, body })))
      message.success('已保存');
    await load();
  };

  const reset = async (op: Operator) => {
    const answer = await shown(call(adminRoutes.resetOperatorPassword, { params: { id: op.id } }));
    if (answer) setSecret({ name: op.name, password: answer.password });
  };

  return (
    <PageContainer title="管理员">
      <ProTable<Operator>
        rowKey="id"
        loading={rows === undefined}
        dataSource={rows ?? []}
        search={false}
        pagination={false}
        headerTitle="后台操作员"
        options={{ density: false, setting: false, reload: load }}
        toolBarRender={() => [
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            添加操作员
          </Button>,
        ]}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          {
            title: '用户名',
            dataIndex: 'name',
            render: (_, op) => (
              <Space>
                {op.name}
                {op.id === me?.id && <Tag>我</Tag>}
              </Space>
            ),
          },
          {
            title: '角色',
            dataIndex: 'role',
            width: 200,
            render: (_, op) => (
              <Select<Role>
                value={op.role}
                style={{ width: 160 }}
                options={roleOptions}
                onChange={(role) => change(op, { role })}
                aria-label={`${op.name} 的角色`}
              />
            ),
          },
          {
            title: '状态',
            dataIndex: 'disabled',
            width: 100,
            render: (_, op) => (op.disabled ? <Tag color="red">已停用</Tag> : <Tag color="green">正常</Tag>),
          },
          {
            title: inChinaTime('创建时间'),
            dataIndex: 'createdAt',
            width: 190,
            render: (_, op) => dateTime(op.createdAt),
          },
          {
            title: '操作',
            key: 'actions',
            width: 200,
            render: (_, op) => (
              <Space size={0}>
                <Popconfirm
                  title={op.disabled ? `启用 ${op.name}？` : `停用 ${op.name}？其登录会话将立即结束`}
                  onConfirm={() => change(op, { disabled: !op.disabled })}
                >
                  <Button type="link" size="small" danger={!op.disabled}>
                    {op.disabled ? '启用' : '停用'}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={`重置 ${op.name} 的密码？其登录会话将立即结束`}
                  onConfirm={() => reset(op)}
                >
                  <Button type="link" size="small">
                    重置密码
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <ModalForm<{ name: string; role: Role }>
        name="operator"
        title="添加操作员"
        open={adding}
        form={form}
        width={480}
        initialValues={{ role: 'editor' }}
        modalProps={{ destroyOnClose: true }}
        onOpenChange={setAdding}
        onFinish={async (values) => {
          const added = await shown(call(adminRoutes.addOperator, { body: values }, { form }));
          if (!added) return false;
          setSecret({ name: added.operator.name, password: added.password });
          await load();
          return true;
        }}
      >
        <ProFormText
          name="name"
          label="用户名"
          placeholder="2-32 位字母、数字、_ . -"
          rules={[
            { required: true, message: '请输入用户名' },
            { pattern: /^[A-Za-z0-9_.-]{2,32}$/, message: '用户名须为 2-32 位字母、数字、_ . -' },
          ]}
        />
        <ProFormSelect name="role" label="角色" options={roleOptions} rules={[{ required: true }]} />
      </ModalForm>
      <PasswordShownOnce
        password={secret?.password}
        title="请保存新密码"
        okText="我已保存"
        whose=<>
          操作员 <b>{secret?.name}</b> 的密码
        </>
        testId="new-password"
        onClose={() => setSecret(undefined)}
      />
    </PageContainer>
  );
}
