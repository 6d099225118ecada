import { PageContainer } from '@ant-design/pro-components';
import type { ReaderMatch } from '@yueman/contract/admin';
import { Alert, Card, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { adminRoutes, call, shown } from '../api.ts';
import { dateTime, inChinaTime } from '../format.ts';
import { READER_MATCH_NAMES } from '../names.ts';

/**
 * 读者: one search box for an account name (`yd…`, what readers tell support), a bound mobile, a user id or a
 * visitor id. One match opens the reader's page; several (a visitor id shared by accounts) are listed.
 */
export default function ReadersPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [found, setFound] = useState<ReaderMatch[]>();
  const [searching, setSearching] = useState(false);

  const search = async (value: string) => {
    const q = value.trim();
    if (q === '') return;
    setSearching(true);
    const answer = await shown(call(adminRoutes.searchReaders, { query: { q } }));
    setSearching(false);
    if (!answer) return;
    setParams({ q }, { replace: true });
    if (answer.list.length === 1 && answer.list[0]) navigate(`/readers/${answer.list[0].userId}`);
    else setFound(answer.list);
  };

  return (
    <PageContainer title="读者">
      <Card>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Alert
            type="info"
            showIcon
            message="输入读者的账号（如 yd12345678）、绑定的手机号、用户 ID 或访客 ID 查找读者。在读者页可查看订单、已购章节、消费记录、阅币流水和登录情况；调整阅币和 VIP、重置密码、退出登录、封禁都需填写原因，并记入操作日志。"
          />
          <Input.Search
            aria-label="查找读者"
            placeholder="账号 / 手机号 / 用户 ID / 访客 ID"
            enterButton="查找"
            size="large"
            style={{ maxWidth: 560 }}
            value={text}
            loading={searching}
            onChange={(e) => setText(e.target.value)}
            onSearch={search}
            allowClear
          />
          {found?.length === 0 && <Typography.Text type="secondary">未找到该读者</Typography.Text>}
          {found && found.length > 1 && (
            <Table<ReaderMatch>
              rowKey="userId"
              size="small"
              pagination={false}
              dataSource={found}
              onRow={(r) => ({
                onClick: () => navigate(`/readers/${r.userId}`),
                style: { cursor: 'pointer' },
              })}
              columns={[
                { title: '用户 ID', dataIndex: 'userId', width: 100 },
                { title: '账号', dataIndex: 'account', width: 160 },
                { title: '绑定手机', dataIndex: 'mobile', width: 160, render: (m) => m ?? '未绑定' },
                {
                  title: '匹配',
                  dataIndex: 'matched',
                  width: 100,
                  render: (m) => READER_MATCH_NAMES[m] ?? m,
                },
                {
                  title: inChinaTime('注册时间'),
                  dataIndex: 'createdAt',
                  width: 180,
                  render: (v) => dateTime(v),
                },
                {
                  title: '状态',
                  dataIndex: 'blocked',
                  render: (b) => (b ? <Tag color="red">已封禁</Tag> : <Tag color="green">正常</Tag>),
                },
              ]}
            />
          )}
        </Space>
      </Card>
    </PageContainer>
  );
}
