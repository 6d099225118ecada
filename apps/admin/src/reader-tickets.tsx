import {
  ModalForm,
  type ProColumns,
  ProFormDigit,
  ProFormRadio,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { ConsoleTicket, TicketKind } from '@yueman/contract/admin';
import { App, Form, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { adminRoutes, call, shown } from './api.ts';
import { BookPicker, type PickedBook } from './book-picker.tsx';
import { dateTime as chinaTime } from './format.ts';

export const TICKET_KIND_NAMES: Record<TicketKind, string> = { read: '阅读券', presale: '抢先券' };
const STATE_TAGS: Record<ConsoleTicket['state'], [string, string]> = {
  usable: ['green', '可用'],
  spent: ['default', '已使用'],
  expired: ['red', '已过期'],
};
const SOURCE_NAMES: Record<string, string> = {
  grant: '后台发放',
  campaign: '活动',
  first_visit: '首访礼包',
  branch_offer: '渠道福利',
  checkin: '每日签到',
  card: '月卡',
};

/** The reader page's 阅读券 tab: each ticket's kind, what it unlocks, where it came from, its expiry and state. */
export const ticketColumns: ProColumns<ConsoleTicket>[] = [
  {
    title: '种类',
    dataIndex: 'kind',
    render: (_, r) =>
      `${TICKET_KIND_NAMES[r.kind]} · ${r.rentalHours === null ? '永久解锁' : `解锁 ${r.rentalHours} 小时`}`,
  },
  {
    title: '适用范围',
    dataIndex: 'scope',
    ellipsis: true,
    render: (_, r) =>
      r.scope === null ? '全部书籍' : r.scope.map((b) => `《${b.title || `书籍 ${b.bookId}`}》`).join('、'),
  },
  {
    title: '状态',
    dataIndex: 'state',
    width: 90,
    render: (_, r) => {
      const [color, text] = STATE_TAGS[r.state];
      return <Tag color={color}>{text}</Tag>;
    },
  },
  { title: '到期（北京时间）', dataIndex: 'expiresAt', width: 170, render: (_, r) => chinaTime(r.expiresAt) },
  { title: '使用时间（北京时间）', dataIndex: 'spentAt', width: 170, render: (_, r) => chinaTime(r.spentAt) },
  { title: '来源', dataIndex: 'source', width: 100, render: (_, r) => SOURCE_NAMES[r.source] ?? '其他' },
  { title: '原因', dataIndex: 'reason', ellipsis: true, render: (_, r) => r.reason || '-' },
  {
    title: '发放时间（北京时间）',
    dataIndex: 'createdAt',
    width: 170,
    render: (_, r) => chinaTime(r.createdAt),
  },
];

interface GrantFields {
  kind: TicketKind;
  count: number;
  expiresInDays: number;
  rentalHours?: number | null;
  scopeKind: 'any' | 'books';
  reason: string;
}

/** A new id each time the form opens: sending it again (a double click, a retry) grants once. */
const newRequestId = () => crypto.randomUUID().replaceAll('-', '');

/**
 * 发放阅读券: kind, how many, for how many days, on any book or the books picked, permanent or a rental, and the
 * reason (kept in the audit log). One request id per opening of the form.
 */
export function GrantTicketsModal(props: {
  userId: number;
  account: string;
  open: boolean;
  onClose(): void;
  onGranted(): void;
}) {
  const [form] = Form.useForm<GrantFields>();
  const [requestId, setRequestId] = useState(newRequestId);
  const [books, setBooks] = useState<PickedBook[]>([]);
  const { message } = App.useApp();
  const scopeKind = Form.useWatch('scopeKind', form);

  useEffect(() => {
    if (props.open) {
      setRequestId(newRequestId());
      setBooks([]);
    }
  }, [props.open]);

  return (
    <ModalForm<GrantFields>
      name="reader-tickets"
      title={`给读者 ${props.account} 发放阅读券`}
      open={props.open}
      form={form}
      width={560}
      modalProps={{ destroyOnHidden: true, okText: '确认发放', onCancel: props.onClose }}
      onOpenChange={(o) => !o && props.onClose()}
      initialValues={{ kind: 'read', count: 1, expiresInDays: 30, scopeKind: 'any' }}
      onFinish={async (v) => {
        if (v.scopeKind === 'books' && books.length === 0) {
          form.setFields([{ name: 'scopeKind', errors: ['请至少选择一本书'] }]);
          return false;
        }
        const answer = await shown(
          call(
            adminRoutes.grantReaderTickets,
            {
              params: { userId: props.userId },
              body: {
                kind: v.kind,
                count: v.count,
                expiresInDays: v.expiresInDays,
                ...(v.rentalHours ? { rentalHours: v.rentalHours } : {}),
                scope: v.scopeKind === 'any' ? null : books.map((b) => b.bookId),
                reason: v.reason,
                requestId,
              },
            },
            { form },
          ),
        );
        if (!answer) return false;
        message.success(answer.repeated ? '该发放已完成，未重复执行' : `已发放 ${answer.count} 张阅读券`);
        props.onGranted();
        return true;
      }}
    >
      <Typography.Paragraph type="secondary">
        读者解锁付费章节时优先使用先到期的券，每张券解锁一话；过期的券不能再用。发放记入操作日志。
      </Typography.Paragraph>
      <ProFormRadio.Group
        name="kind"
        label="种类"
        radioType="button"
        options={[
          { value: 'read', label: '阅读券（普通章节）' },
          { value: 'presale', label: '抢先券（也可解锁抢先看章节）' },
        ]}
      />
      <Space size="large" align="start">
        <ProFormDigit
          name="count"
          label="张数"
          min={1}
          max={100}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true, message: '请填写张数' }]}
        />
        <ProFormDigit
          name="expiresInDays"
          label="有效天数"
          min={1}
          max={365}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true, message: '请填写有效天数' }]}
        />
        <ProFormDigit
          name="rentalHours"
          label="解锁时长（小时）"
          placeholder="留空为永久"
          min={1}
          max={720}
          fieldProps={{ precision: 0 }}
        />
      </Space>
      <ProFormRadio.Group
        name="scopeKind"
        label="适用范围"
        options={[
          { value: 'any', label: '全部书籍' },
          { value: 'books', label: '指定书籍' },
        ]}
      />
      {scopeKind === 'books' && (
        <Space direction="vertical" style={{ marginBottom: 16 }}>
          <BookPicker
            exclude={books.map((b) => b.bookId)}
            disabled={books.length >= 20}
            onPick={(b) => setBooks((list) => [...list, b])}
          />
          <Space wrap>
            {books.map((b) => (
              <Tag
                key={b.bookId}
                closable
                onClose={() => setBooks((list) => list.filter((x) => x.bookId !== b.bookId))}
              >
                《{b.title}》
              </Tag>
            ))}
          </Space>
        </Space>
      )}
      <ProFormTextArea
        name="reason"
        label="原因"
        placeholder="如：活动奖励，或读者反馈章节加载失败的补偿"
        fieldProps={{ maxLength: 200, showCount: true }}
        rules={[{ required: true, whitespace: true, message: '请填写原因' }]}
      />
    </ModalForm>
  );
}
