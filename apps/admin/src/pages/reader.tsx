import {
  ModalForm,
  PageContainer,
  type ProColumns,
  ProFormDigit,
  ProFormRadio,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import type {
  ConsoleTicket,
  OrderRow,
  ReaderProfile,
  ReaderPurchase,
  ReaderRecord,
  ReaderReset,
  ReaderSession,
  ReaderTransfer,
} from '@yueman/contract/admin';
import { Alert, App, Button, Card, Descriptions, Form, Space, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, adminRoutes, call, shown } from '../api.ts';
import { branchLabel, dateTime, inChinaTime, yuan } from '../format.ts';
import { accountName, TRANSFER_KIND_NAMES } from '../names.ts';
import { contentOf, StateTag } from '../order-parts.tsx';
import { PasswordShownOnce } from '../password-shown-once.tsx';
import { GrantTicketsModal, ticketColumns } from '../reader-tickets.tsx';
import { READER_ACCOUNT_KEEPERS, READER_VALUE_KEEPERS, REFUNDERS, useCan } from '../session.tsx';

type Action = 'coins' | 'vip' | 'tickets' | 'password' | 'sign-out' | 'block' | 'unblock';
type Paged<T> = { page: number; size: number; total: number; list: T[] };

/** A new id each time a form opens: sending the same form again (a double click, a retry) is the same request. */
const newRequestId = () => crypto.randomUUID().replaceAll('-', '');

/** One of the page's tables: the server pages it; `version` reloads it after an action. */
function PagedTable<T extends object>(props: {
  rowKey: string;
  columns: ProColumns<T>[];
  version: number;
  load(page: number, size: number): Promise<Paged<T>>;
  empty: string;
}) {
  return (
    <ProTable<T>
      key={props.version}
      rowKey={props.rowKey}
      columns={props.columns}
      search={false}
      options={false}
      size="small"
      locale={{ emptyText: props.empty }}
      pagination={{ defaultPageSize: 10, showSizeChanger: true }}
      request={async (params) => {
        try {
          const data = await props.load(params.current ?? 1, params.pageSize ?? 10);
          return { data: data.list, total: data.total, success: true };
        } catch (err) {
          if (err instanceof ApiError) return { data: [], total: 0, success: false };
          throw err;
        }
      }}
    />
  );
}

/**
 * 读者详情: who the reader is, their coins and VIP, where they came from; their orders, purchases, consumption
 * records, coin transfers and sessions; and the actions their role allows, each with a reason for the audit log.
 */
export default function ReaderPage() {
  const userId = Number(useParams().userId);
  const [reader, setReader] = useState<ReaderProfile | null>();
  const [version, setVersion] = useState(0);
  const [action, setAction] = useState<Action>();
  const [requestId, setRequestId] = useState(newRequestId);
  const [secret, setSecret] = useState<ReaderReset>();
  const [form] = Form.useForm<Record<string, unknown>>();
  const { message } = App.useApp();
  const keepsAccount = useCan(READER_ACCOUNT_KEEPERS);
  const keepsValue = useCan(READER_VALUE_KEEPERS);
  const wholeNumbers = useCan(REFUNDERS);

  const load = useCallback(async () => {
    if (!Number.isInteger(userId) || userId < 1) return setReader(null);
    try {
      setReader(await call(adminRoutes.readerProfile, { params: { userId } }));
    } catch {
      setReader(null);
    }
  }, [userId]);
  useEffect(() => {
    void load();
  }, [load]);

  const open = (a: Action) => {
    form.resetFields();
    setRequestId(newRequestId());
    setAction(a);
  };
  const done = async () => {
    setAction(undefined);
    await load();
    setVersion((v) => v + 1);
    return true;
  };

  if (reader === null)
    return (
      <PageContainer title="读者详情">
        <Card>
          <Typography.Text type="secondary">未找到该读者。</Typography.Text>{' '}
          <Link to="/readers">返回查找</Link>
        </Card>
      </PageContainer>
    );
  if (!reader) return <PageContainer title="读者详情" loading />;

  const params = { userId };
  /** Sends the form's call; on success says what was done and reloads the page's head and tables. */
  const submit = async (run: () => Promise<unknown>, said: (answer: never) => string) => {
    const answer = await shown(run());
    if (answer === undefined) return false;
    message.success(said(answer as never));
    return done();
  };

  const orderColumns: ProColumns<OrderRow>[] = [
    {
      title: '订单号',
      dataIndex: 'orderNo',
      render: (_, r) => (
        <Link to={wholeNumbers ? `/orders/${r.orderNo}` : `/orders/by-id/${r.id}`}>
          <span style={{ fontFamily: 'monospace' }}>{r.orderNo}</span>
        </Link>
      ),
    },
    { title: '内容', dataIndex: 'purpose', render: (_, r) => contentOf(r) },
    { title: '实付', dataIndex: 'payAmount', align: 'right', render: (_, r) => yuan(r.payAmount) },
    { title: '状态', dataIndex: 'state', render: (_, r) => <StateTag state={r.state} /> },
    { title: '支付渠道', dataIndex: 'channelName' },
    { title: inChinaTime('下单时间'), dataIndex: 'createdAt', render: (_, r) => dateTime(r.createdAt) },
  ];
  const purchaseColumns: ProColumns<ReaderPurchase>[] = [
    {
      title: '书',
      dataIndex: 'bookTitle',
      render: (_, r) => <Link to={`/books/${r.bookId}`}>{r.bookTitle}</Link>,
    },
    {
      title: '章节',
      dataIndex: 'chapterNumber',
      render: (_, r) => `第${r.chapterNumber}话 ${r.chapterTitle}`,
    },
    { title: '阅币', dataIndex: 'price', align: 'right' },
    { title: inChinaTime('购买时间'), dataIndex: 'createdAt', render: (_, r) => dateTime(r.createdAt) },
  ];
  const recordColumns: ProColumns<ReaderRecord>[] = [
    { title: '记录', dataIndex: 'title' },
    {
      title: '阅币',
      dataIndex: 'coins',
      align: 'right',
      render: (_, r) => (r.coins > 0 ? `+${r.coins}` : r.coins),
    },
    {
      title: '支付',
      dataIndex: 'payAmount',
      align: 'right',
      render: (_, r) => (r.payAmount ? yuan(r.payAmount) : '-'),
    },
    { title: '时间（北京时间）', dataIndex: 'createdAt' },
  ];
  const transferColumns: ProColumns<ReaderTransfer>[] = [
    { title: '类型', dataIndex: 'kind', render: (_, r) => TRANSFER_KIND_NAMES[r.kind] ?? r.kind },
    {
      title: '阅币',
      dataIndex: 'amount',
      align: 'right',
      render: (_, r) => (
        <Typography.Text type={r.amount < 0 ? 'danger' : 'success'}>
          {r.amount > 0 ? `+${r.amount}` : r.amount}
        </Typography.Text>
      ),
    },
    { title: '对方账户', dataIndex: 'counterparty', render: (_, r) => accountName(r.counterparty) },
    { title: '备注', dataIndex: 'memo', ellipsis: true },
    { title: '转账编号', dataIndex: 'id', ellipsis: true, render: (_, r) => <code>{r.id}</code> },
    { title: inChinaTime('时间'), dataIndex: 'createdAt', render: (_, r) => dateTime(r.createdAt, true) },
  ];
  const sessionColumns: ProColumns<ReaderSession>[] = [
    { title: inChinaTime('登录时间'), dataIndex: 'createdAt', render: (_, r) => dateTime(r.createdAt) },
    { title: inChinaTime('到期时间'), dataIndex: 'expiresAt', render: (_, r) => dateTime(r.expiresAt) },
  ];

  const reasonField = (placeholder: string) => (
    <ProFormTextArea
      name="reason"
      label="原因"
      placeholder={placeholder}
      fieldProps={{ maxLength: 200, showCount: true }}
      rules={[{ required: true, whitespace: true, message: '请填写原因' }]}
    />
  );
  const modal = <V,>(
    a: Action,
    title: string,
    okText: string,
    children: ReactNode,
    onFinish: (v: V) => Promise<boolean>,
  ) => (
    <ModalForm<Record<string, unknown>>
      key={a}
      name={`reader-${a}`}
      title={title}
      open={action === a}
      form={form}
      width={520}
      modalProps={{ destroyOnHidden: true, okText, onCancel: () => setAction(undefined) }}
      onOpenChange={(o) => !o && setAction(undefined)}
      onFinish={(v) => onFinish(v as V)}
    >
      {children}
    </ModalForm>
  );

  return (
    <PageContainer
      title={`读者 ${reader.account}`}
      onBack={() => history.back()}
      extra={
        <Space wrap>
          {keepsValue && (
            <>
              <Button type="primary" onClick={() => open('coins')}>
                调整阅币
              </Button>
              <Button onClick={() => open('vip')}>调整 VIP</Button>
              <Button onClick={() => setAction('tickets')}>发放阅读券</Button>
            </>
          )}
          {keepsAccount && (
            <>
              <Button onClick={() => open('password')}>重置密码</Button>
              <Button onClick={() => open('sign-out')}>退出所有登录</Button>
              {reader.blocked ? (
                <Button onClick={() => open('unblock')}>解除封禁</Button>
              ) : (
                <Button danger onClick={() => open('block')}>
                  封禁
                </Button>
              )}
            </>
          )}
        </Space>
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {reader.blocked && (
          <Alert
            type="error"
            showIcon
            message={`已封禁充值和购买（${dateTime(reader.blocked.at)}）`}
            description={`原因：${reader.blocked.reason}。读者仍可阅读免费和已购章节，充值和购买时会看到账号已被暂停的提示。`}
          />
        )}
        <Card>
          <Descriptions
            bordered
            size="small"
            column={3}
            items={[
              { key: 'userId', label: '用户 ID', children: reader.userId },
              {
                key: 'account',
                label: '账号',
                children: <Typography.Text copyable>{reader.account}</Typography.Text>,
              },
              { key: 'mobile', label: '绑定手机', children: reader.mobile ?? '未绑定' },
              {
                key: 'balance',
                label: '阅币余额',
                children: (
                  <Typography.Text strong data-testid="reader-balance">
                    {reader.balance}
                  </Typography.Text>
                ),
              },
              {
                key: 'vip',
                label: inChinaTime('VIP 到期'),
                children:
                  reader.vipEnd && Date.parse(reader.vipEnd) > Date.now() ? (
                    <Tag color="gold">{dateTime(reader.vipEnd)}</Tag>
                  ) : reader.vipEnd ? (
                    `已过期（${dateTime(reader.vipEnd)}）`
                  ) : (
                    '未开通'
                  ),
              },
              { key: 'branch', label: '推广渠道', children: branchLabel(reader.branchId, reader.branchName) },
              { key: 'first', label: inChinaTime('首次访问'), children: dateTime(reader.firstVisitAt) },
              { key: 'seen', label: inChinaTime('最近活跃'), children: dateTime(reader.lastSeenAt) },
              { key: 'created', label: inChinaTime('注册时间'), children: dateTime(reader.createdAt) },
              { key: 'visitor', label: '访客 ID', children: <code>{reader.visitorId}</code> },
              { key: 'sessions', label: '有效登录', children: `${reader.activeSessions} 个` },
              {
                key: 'state',
                label: '状态',
                children: reader.blocked ? <Tag color="red">已封禁</Tag> : <Tag color="green">正常</Tag>,
              },
            ]}
          />
        </Card>
        <Card>
          <Tabs
            items={[
              {
                key: 'orders',
                label: '订单',
                children: (
                  <PagedTable<OrderRow>
                    rowKey="id"
                    version={version}
                    columns={orderColumns}
                    empty="没有订单"
                    load={(page, size) => call(adminRoutes.orders, { query: { page, size, userId } })}
                  />
                ),
              },
              {
                key: 'purchases',
                label: '已购章节',
                children: (
                  <PagedTable<ReaderPurchase>
                    rowKey="chapterId"
                    version={version}
                    columns={purchaseColumns}
                    empty="没有购买过章节"
                    load={(page, size) =>
                      call(adminRoutes.readerPurchases, { params, query: { page, size } })
                    }
                  />
                ),
              },
              {
                key: 'records',
                label: '消费记录',
                children: (
                  <PagedTable<ReaderRecord>
                    rowKey="id"
                    version={version}
                    columns={recordColumns}
                    empty="没有消费记录"
                    load={(page, size) => call(adminRoutes.readerRecords, { params, query: { page, size } })}
                  />
                ),
              },
              {
                key: 'transfers',
                label: '阅币流水',
                children: (
                  <PagedTable<ReaderTransfer>
                    rowKey="id"
                    version={version}
                    columns={transferColumns}
                    empty="没有阅币流水"
                    load={(page, size) =>
                      call(adminRoutes.readerTransfers, { params, query: { page, size } })
                    }
                  />
                ),
              },
              {
                key: 'tickets',
                label: '阅读券',
                children: (
                  <PagedTable<ConsoleTicket>
                    rowKey="id"
                    version={version}
                    columns={ticketColumns}
                    empty="没有阅读券"
                    load={(page, size) => call(adminRoutes.readerTickets, { params, query: { page, size } })}
                  />
                ),
              },
              {
                key: 'sessions',
                label: '登录',
                children: (
                  <PagedTable<ReaderSession>
                    rowKey="createdAt"
                    version={version}
                    columns={sessionColumns}
                    empty="没有有效的登录"
                    load={(page, size) => call(adminRoutes.readerSessions, { params, query: { page, size } })}
                  />
                ),
              },
            ]}
          />
        </Card>
      </Space>

      {modal(
        'coins',
        `调整读者 ${reader.account} 的阅币`,
        '确认调整',
        <>
          <Typography.Paragraph type="secondary">
            当前余额 {reader.balance} 阅币。补发从“调整”系统账户转入，扣回转回该账户，余额不会低于
            0；记入操作日志。
          </Typography.Paragraph>
          <ProFormRadio.Group
            name="direction"
            label="方式"
            initialValue="grant"
            radioType="button"
            options={[
              { value: 'grant', label: '补发' },
              { value: 'take', label: '扣回' },
            ]}
          />
          <ProFormDigit
            name="amount"
            label="阅币"
            min={1}
            max={1_000_000}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写阅币数' }]}
          />
          {reasonField('如：充值未到账，核对订单后补发')}
        </>,
        (v: { direction: 'grant' | 'take'; amount: number; reason: string }) =>
          submit(
            () => call(adminRoutes.adjustReaderCoins, { params, body: { ...v, requestId } }, { form }),
            (a: { direction: 'grant' | 'take'; amount: number; repeated: boolean }) =>
              a.repeated
                ? '该调整已完成，未重复执行'
                : `${a.direction === 'grant' ? '已补发' : '已扣回'} ${a.amount} 阅币`,
          ),
      )}
      {modal(
        'vip',
        `调整读者 ${reader.account} 的 VIP`,
        '确认调整',
        <>
          <Typography.Paragraph type="secondary">
            正数为赠送（从现在或当前到期时间起算），负数为缩短（最早到现在为止）。当前：
            {reader.vipEnd ? dateTime(reader.vipEnd) : '未开通'}
          </Typography.Paragraph>
          <ProFormDigit
            name="days"
            label="天数"
            min={-3650}
            max={3650}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写天数' }]}
          />
          {reasonField('如：活动奖励 7 天')}
        </>,
        (v: { days: number; reason: string }) =>
          submit(
            () => call(adminRoutes.adjustReaderVip, { params, body: { ...v, requestId } }, { form }),
            (a: { days: number; repeated: boolean }) =>
              a.repeated
                ? '该调整已完成，未重复执行'
                : a.days > 0
                  ? `已赠送 VIP ${a.days} 天`
                  : `已缩短 VIP ${-a.days} 天`,
          ),
      )}
      {modal(
        'password',
        `重置读者 ${reader.account} 的密码`,
        '重置密码',
        <>
          <Typography.Paragraph type="secondary">
            读者在所有设备上的登录都会退出，需用新密码重新登录。新密码只显示一次。
          </Typography.Paragraph>
          {reasonField('如：读者来电，已核对最近一笔充值的时间和金额')}
        </>,
        async (v: { reason: string }) => {
          const answer = await shown(call(adminRoutes.resetReaderPassword, { params, body: v }, { form }));
          if (!answer) return false;
          setSecret(answer);
          return done();
        },
      )}
      {modal(
        'sign-out',
        `让读者 ${reader.account} 退出所有登录`,
        '退出所有登录',
        <>
          <Typography.Paragraph type="secondary">
            读者在所有设备上的登录都会结束（{reader.activeSessions} 个），需用账号密码重新登录。
          </Typography.Paragraph>
          {reasonField('如：读者称手机丢失')}
        </>,
        (v: { reason: string }) =>
          submit(
            () => call(adminRoutes.signReaderOut, { params, body: v }, { form }),
            (a: { ended: number }) => `已退出 ${a.ended} 个登录`,
          ),
      )}
      {modal(
        'block',
        `封禁读者 ${reader.account}`,
        '封禁',
        <>
          <Typography.Paragraph type="secondary">
            封禁后读者不能充值和购买章节（会看到账号已被暂停的提示），仍可阅读免费和已购章节。
          </Typography.Paragraph>
          {reasonField('如：疑似盗刷，待核实')}
        </>,
        (v: { reason: string }) =>
          submit(
            () => call(adminRoutes.blockReader, { params, body: v }, { form }),
            () => '已封禁充值和购买',
          ),
      )}
      {modal(
        'unblock',
        `解除读者 ${reader.account} 的封禁`,
        '解除封禁',
        reasonField('如：已核实为本人操作'),
        (v: { reason: string }) =>
          submit(
            () => call(adminRoutes.unblockReader, { params, body: v }, { form }),
            () => '已解除封禁',
          ),
      )}

      <GrantTicketsModal
        userId={userId}
        account={reader.account}
        open={action === 'tickets'}
        onClose={() => setAction(undefined)}
        onGranted={() => void done()}
      />

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
