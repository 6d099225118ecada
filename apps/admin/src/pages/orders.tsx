import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { OrderRow, OrderState, PayChannelOption } from '@yueman/contract/admin';
import { Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, adminRoutes, call } from '../api.ts';
import { branchLabel, dateTime, inChinaTime, yuan } from '../format.ts';
import { ORDER_STATE_NAMES } from '../names.ts';
import { contentOf, StateTag } from '../order-parts.tsx';
import { READER_VIEWERS, REFUNDERS, useCan } from '../session.tsx';

// The state filter also offers the refunded states (derived from an order's refunds, not stored).
const stateEnum = {
  ...Object.fromEntries(
    (Object.keys(ORDER_STATE_NAMES) as OrderState[]).map((s) => [s, { text: ORDER_STATE_NAMES[s] }]),
  ),
  refunded: { text: '已退款' },
  'partly-refunded': { text: '部分退款' },
};
/** The state filter as the list call takes it. */
const stateQuery = (value: unknown) =>
  value === 'refunded'
    ? { refund: 'full' as const }
    : value === 'partly-refunded'
      ? { refund: 'partial' as const }
      : { state: value as OrderState | undefined };

/** Every order, newest first, with the filters finance and customer service look an order up by. */
export default function OrdersPage() {
  const navigate = useNavigate();
  const [channels, setChannels] = useState<PayChannelOption[]>([]);
  // Roles that do not refund see order numbers in part: their links open the story by the order's id.
  const wholeNumbers = useCan(REFUNDERS);
  const seesReaders = useCan(READER_VIEWERS);
  const storyPath = (r: OrderRow) => (wholeNumbers ? `/orders/${r.orderNo}` : `/orders/by-id/${r.id}`);

  const columns: ProColumns<OrderRow>[] = [
    {
      title: '订单号',
      dataIndex: 'orderNo',
      width: 270,
      fieldProps: { placeholder: '完整的商户订单号' },
      formItemProps: { rules: [{ pattern: /^\s*[A-Za-z0-9]{1,64}\s*$/, message: '订单号只含字母和数字' }] },
      render: (_, r) => (
        <Typography.Text
          copyable={wholeNumbers ? { text: r.orderNo } : false}
          style={{ fontFamily: 'monospace', fontSize: 13, whiteSpace: 'nowrap' }}
        >
          <Link to={storyPath(r)} onClick={(e) => e.stopPropagation()}>
            {r.orderNo}
          </Link>
        </Typography.Text>
      ),
    },
    {
      title: '用户',
      dataIndex: 'user',
      hideInTable: true,
      fieldProps: { placeholder: '账号 / 手机号 / 用户 ID / 访客 ID' },
      formItemProps: {
        rules: [{ pattern: /^\s*[A-Za-z0-9_-]{1,64}\s*$/, message: '请输入账号、手机号、用户 ID 或访客 ID' }],
      },
    },
    {
      title: '用户',
      dataIndex: 'account',
      search: false,
      width: 110,
      render: (_, r) => (
        <>
          <div>
            {seesReaders ? (
              <Link to={`/readers/${r.userId}`} onClick={(e) => e.stopPropagation()}>
                {r.account}
              </Link>
            ) : (
              r.account
            )}
          </div>
          <Typography.Text type="secondary">ID {r.userId}</Typography.Text>
        </>
      ),
    },
    { title: '内容', dataIndex: 'purpose', search: false, width: 120, render: (_, r) => contentOf(r) },
    {
      title: '实付',
      dataIndex: 'payAmount',
      search: false,
      width: 100,
      align: 'right',
      render: (_, r) => (
        <>
          <div>{yuan(r.payAmount)}</div>
          {r.amountLevel !== r.payAmount && (
            <Typography.Text type="secondary" delete>
              {yuan(r.amountLevel)}
            </Typography.Text>
          )}
          {r.refundedAmount > 0 && (
            <div>
              <Typography.Text type="danger">退 {yuan(r.refundedAmount)}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
    {
      title: '状态',
      dataIndex: 'state',
      width: 80,
      valueType: 'select',
      valueEnum: stateEnum,
      render: (_, r) => <StateTag state={r.state} refunded={r.refundedAmount} paid={r.payAmount} />,
    },
    {
      title: '支付渠道',
      dataIndex: 'channel',
      width: 100,
      valueType: 'select',
      fieldProps: {
        options: channels.map((c) => ({ value: c.code, label: `${c.name}（${c.code}）` })),
      },
      render: (_, r) => (
        <>
          <div>{r.channelName}</div>
          <Typography.Text type="secondary">{r.gateway}</Typography.Text>
        </>
      ),
    },
    {
      title: '推广渠道',
      dataIndex: 'branchId',
      width: 110,
      valueType: 'digit',
      fieldProps: { min: -2_147_483_648, precision: 0, placeholder: '渠道 ID，默认 -2' },
      render: (_, r) => branchLabel(r.branchId, r.branchName),
    },
    {
      title: inChinaTime('下单日期'),
      dataIndex: 'createdRange',
      valueType: 'dateRange',
      hideInTable: true,
      // Two of the form's columns: in one, the long label left the two dates unreadably narrow at 1440 px.
      colSize: 2,
      fieldProps: { style: { width: '100%' } },
      search: { transform: (value: [string, string]) => ({ from: value[0], to: value[1] }) },
    },
    {
      title: inChinaTime('下单时间'),
      dataIndex: 'createdAt',
      search: false,
      width: 170,
      render: (_, r) => dateTime(r.createdAt),
    },
    {
      title: inChinaTime('支付时间'),
      dataIndex: 'paidAt',
      search: false,
      width: 170,
      render: (_, r) => dateTime(r.paidAt),
    },
  ];

  return (
    <PageContainer title="订单">
      <ProTable<OrderRow>
        rowKey="id"
        columns={columns}
        request={async (params) => {
          try {
            const data = await call(adminRoutes.orders, {
              query: {
                page: params.current ?? 1,
                size: params.pageSize ?? 20,
                orderNo: typeof params.orderNo === 'string' ? params.orderNo.trim() : undefined,
                user: typeof params.user === 'string' && params.user.trim() ? params.user.trim() : undefined,
                ...stateQuery(params.state),
                channel: params.channel as string | undefined,
                branchId: params.branchId as number | undefined,
                from: params.from as string | undefined,
                to: params.to as string | undefined,
              },
            });
            setChannels(data.channels);
            return { data: data.list, total: data.total, success: true };
          } catch (err) {
            if (err instanceof ApiError) return { data: [], total: 0, success: false };
            throw err;
          }
        }}
        search={{ labelWidth: 'auto', defaultCollapsed: false, span: 6 }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        onRow={(row) => ({
          onClick: () => navigate(storyPath(row)),
          style: { cursor: 'pointer' },
        })}
        options={{ density: false, setting: false }}
        dateFormatter="string"
        headerTitle="订单（新的在前，点击查看订单的完整经过）"
      />
    </PageContainer>
  );
}
