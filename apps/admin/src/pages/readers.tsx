import { ModalForm, PageContainer, ProFormTextArea } from '@ant-design/pro-components';
import type { Reader, ReaderReset } from '@yueman/contract/admin';
import { Alert, Button, Card, Descriptions, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { dateTime } from '../format.ts';
import { PasswordShownOnce } from '../password-shown-once.tsx';

type LookupBy = 'account' | 'userId';

/**
 * 读者账号 (customer service and owners): find a reader by account, bound mobile or user id, and give them a new
 * password when they lost theirs. The reason is required and kept in the audit log with the operator's name; the
 * password is shown this once. Readers' own 找回充值账号 needs the whole order number and the amount paid.
 */
export default function ReadersPage() {
  const [by, setBy] = useState<LookupBy>('account');
  const [text, setText] = useState('');
  const [reader, setReader] = useState<Reader | null>();
  const [resetting, setResetting] = useState(false);
  const [secret, setSecret] = useState<ReaderReset>();
  const [form] = Form.useForm<{ reason: string }>();

  const lookup = async () => {
    const value = text.trim();
    if (value === '') return;
    if (by === 'userId' && !/^\d{1,10}$/.test(value)) return setReader(null);
    const found = await shown(
      call(adminRoutes.findReader, {
        query: by === 'userId' ? { userId: Number(value) } : { account: value },
      }),
    );
    setReader(found ?? null);
  };

  const reset = async ({ reason }: { reason: string }) => {
    if (!reader) return false;
    const answer = await shown(
      call(
        adminRoutes.resetReaderPassword,
        { params: { userId: reader.userId }, body: { reason } },
        { form },
      ),
    );
    if (!answer) return false;
    setSecret(answer);
    return true;
  };

  return (
    <PageContainer title="读者账号">
      <Card>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            message="读者找不回账号时，核实身份后可在此重置密码。重置需填写原因，会记入操作日志；新密码只显示一次，请告知读者后让其尽快修改。"
          />
          <Space.Compact style={{ maxWidth: 560 }}>
            <Select<LookupBy>
              value={by}
              onChange={setBy}
              style={{ width: 150 }}
              options={[
                { value: 'account', label: '账号或手机号' },
                { value: 'userId', label: '用户 ID' },
              ]}
            />
            <Input
              aria-label="查找读者"
              placeholder={by === 'account' ? '如 yd12345678 或 13800001234' : '如 1024'}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onPressEnter={lookup}
              allowClear
            />
            <Button type="primary" onClick={lookup}>
              查找
            </Button>
          </Space.Compact>
          {reader === null && <Typography.Text type="secondary">未找到该读者</Typography.Text>}
          {reader && (
            <Descriptions
              bordered
              size="small"
              column={2}
              style={{ maxWidth: 720 }}
              items={[
                { key: 'userId', label: '用户 ID', children: reader.userId },
                { key: 'account', label: '账号', children: reader.account },
                { key: 'mobile', label: '绑定手机', children: reader.mobile ?? '未绑定' },
                {
                  key: 'vip',
                  label: 'VIP 到期',
                  children: reader.vipEnd ? dateTime(reader.vipEnd) : '未开通',
                },
                { key: 'created', label: '注册时间', children: dateTime(reader.createdAt) },
                {
                  key: 'actions',
                  label: '操作',
                  children: (
                    <Button danger onClick={() => setResetting(true)}>
                      重置密码
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Space>
      </Card>

      <ModalForm<{ reason: string }>
        name="reset-reader"
        title={reader ? `重置读者 ${reader.account} 的密码` : '重置密码'}
        open={resetting}
        form={form}
        width={480}
        modalProps={{ destroyOnHidden: true, okText: '重置密码', onCancel: () => setResetting(false) }}
        onOpenChange={setResetting}
        onFinish={reset}
      >
        <Typography.Paragraph type="secondary">
          读者在所有设备上的登录都会退出，需用新密码重新登录。
        </Typography.Paragraph>
        <ProFormTextArea
          name="reason"
          label="原因"
          placeholder="如：读者来电，已核对最近一笔充值的时间和金额"
          fieldProps={{ maxLength: 200, showCount: true }}
          rules={[{ required: true, whitespace: true, message: '请填写重置原因' }]}
        />
      </ModalForm>

      <PasswordShownOnce
        password={secret?.password}
        title="请把新密码告知读者"
        okText="我已告知"
        whose=<>
          读者 <b>{secret?.account}</b> 的新密码
        </>
        testId="reader-new-password"
        onClose={() => setSecret(undefined)}
      />
    </PageContainer>
  );
}
