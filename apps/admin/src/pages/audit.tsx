import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { AuditRow } from '@yueman/contract/admin';
import { Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { adminRoutes, call, tablePage } from '../api.ts';
import { dateTime, inChinaTime, yuan } from '../format.ts';
import {
  AUDIT_ACTION_NAMES,
  AUDIT_FIELD_NAMES,
  AUDIT_OBJECT_NAMES,
  auditActionName,
  auditObjectName,
  OUTCOME_NAMES,
  ROLE_NAMES,
  STATUS_NAMES,
} from '../names.ts';

type Values = Record<string, string | undefined>;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const VALUE_NAMES: Record<string, Record<string, string>> = {
  role: ROLE_NAMES,
  status: STATUS_NAMES,
  outcome: OUTCOME_NAMES,
  coins: { take: '收回阅币', keep: '保留阅币' },
  kind: { offline: '线下退款', gateway: '原路退回' },
  type: { coin: '阅币套餐', vip: 'VIP 套餐' },
  // A failed sign-in's reason.
  reason: { 'unknown-name': '用户名不存在', 'wrong-password': '密码错误', disabled: '操作员已停用' },
};

/** What an entry whose before and after are lists keeps, by its action. */
const LIST_NAMES: Record<string, string> = {
  'book.pricing': '各话价格',
  'ad.order': '广告顺序（广告 ID）',
  'home.section': '栏目中的书（书籍 ID）',
  'home.hot_words': '热门搜索词',
};

/** One value of an entry, readable: names for codes, China time for instants, lists and records spelled out. */
function valueText(field: string, value: unknown, action: string): string {
  if (value === null || value === undefined || value === '') return '（无）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number') {
    if (field === 'amount' && action.startsWith('order.')) return yuan(value);
    return String(value);
  }
  if (typeof value === 'string') {
    if (ISO.test(value)) return dateTime(value);
    return VALUE_NAMES[field]?.[value] ?? value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '（无）';
    return value.map((v) => valueText(field, v, action)).join('、');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.number === 'number' && 'price' in record && !('title' in record)) {
      return `第${record.number}话 ${record.price === 0 ? '免费' : `${record.price}阅币`}`;
    }
    return Object.entries(record)
      .map(([k, v]) => `${AUDIT_FIELD_NAMES[k] ?? k}：${valueText(k, v, action)}`)
      .join('，');
  }
  return String(value);
}

interface FieldRow {
  field: string;
  name: string;
  before: string;
  after: string;
  changed: boolean;
}

/** An entry's before and after, field by field (a list kept whole as one row). */
export function fieldRows(row: Pick<AuditRow, 'action' | 'before' | 'after'>): FieldRow[] {
  const asRecord = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const before = asRecord(row.before);
  const after = asRecord(row.after);
  if ((row.before !== null && !before) || (row.after !== null && !after)) {
    const b = valueText('list', row.before, row.action);
    const a = valueText('list', row.after, row.action);
    const name = LIST_NAMES[row.action] ?? '列表';
    return [{ field: 'list', name, before: b, after: a, changed: b !== a }];
  }
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const b = before ? valueText(field, before[field], row.action) : '（无）';
    const a = after ? valueText(field, after[field], row.action) : '（无）';
    return { field, name: AUDIT_FIELD_NAMES[field] ?? field, before: b, after: a, changed: b !== a };
  });
}

function BeforeAfter({ row }: { row: AuditRow }) {
  const rows = fieldRows(row);
  if (rows.length === 0) return <Typography.Text type="secondary">没有记录修改内容</Typography.Text>;
  return (
    <Table<FieldRow>
      rowKey="field"
      size="small"
      pagination={false}
      dataSource={rows}
      data-testid="audit-before-after"
      columns={[
        { title: '字段', dataIndex: 'name', width: 160 },
        {
          title: '修改前',
          dataIndex: 'before',
          render: (v: string) => <span className="pre-line">{v}</span>,
        },
        {
          title: '修改后',
          dataIndex: 'after',
          render: (v: string, r) => (
            <span className="pre-line">
              {v} {r.changed && row.before !== null && row.after !== null && <Tag color="orange">已修改</Tag>}
            </span>
          ),
        },
      ]}
    />
  );
}

const actionOptions = [
  ...Object.entries(AUDIT_OBJECT_NAMES)
    .filter(([code]) => Object.keys(AUDIT_ACTION_NAMES).some((a) => a.startsWith(`${code}.`)))
    .map(([code, name]) => ({ label: `${name}：全部操作`, value: code })),
  ...Object.entries(AUDIT_ACTION_NAMES).map(([value, label]) => ({ label, value })),
];
const objectOptions = Object.entries(AUDIT_OBJECT_NAMES).map(([value, label]) => ({ label, value }));

export default function AuditPage() {
  const [operators, setOperators] = useState<{ label: string; value: number }[]>([]);
  useEffect(() => {
    call(adminRoutes.operators, {}).then(
      (list) => setOperators(list.map((o) => ({ label: `${o.name}（${ROLE_NAMES[o.role]}）`, value: o.id }))),
      () => undefined,
    );
  }, []);

  const columns: ProColumns<AuditRow>[] = [
    { title: 'ID', dataIndex: 'id', width: 80, search: false },
    {
      title: inChinaTime('时间'),
      dataIndex: 'at',
      width: 180,
      search: false,
      render: (_, r) => dateTime(r.at, true),
    },
    {
      title: inChinaTime('日期'),
      dataIndex: 'dates',
      valueType: 'dateRange',
      hideInTable: true,
      search: { transform: (value: [string, string]) => ({ from: value[0], to: value[1] }) },
    },
    {
      title: '操作人',
      dataIndex: 'operatorId',
      width: 160,
      valueType: 'select',
      fieldProps: { options: operators, showSearch: true, optionFilterProp: 'label' },
      render: (_, r) => (r.actor === 'cli' ? '命令行' : r.actor),
    },
    {
      title: '操作',
      dataIndex: 'action',
      width: 180,
      valueType: 'select',
      fieldProps: { options: actionOptions, showSearch: true, optionFilterProp: 'label' },
      render: (_, r) => auditActionName(r.action),
    },
    {
      title: '对象类型',
      dataIndex: 'objectType',
      valueType: 'select',
      hideInTable: true,
      fieldProps: { options: objectOptions },
    },
    {
      title: '对象编号',
      dataIndex: 'objectId',
      hideInTable: true,
      fieldProps: { placeholder: '如书籍 ID、订单号、读者 ID' },
    },
    { title: '对象', dataIndex: 'target', search: false, render: (_, r) => auditObjectName(r.target) },
  ];

  return (
    <PageContainer title="操作日志">
      <ProTable<AuditRow, Values>
        rowKey="id"
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false, searchText: '筛选', resetText: '清空' }}
        headerTitle="所有后台写操作、登录退出与被拒绝的操作（新的在前，展开查看修改前后）"
        request={(params) => {
          const { current, pageSize, operatorId, action, objectType, objectId, from, to } = params;
          return tablePage(
            adminRoutes.audit,
            { current, pageSize },
            {
              operatorId: operatorId === undefined ? undefined : Number(operatorId),
              action,
              objectType,
              objectId: objectId?.trim() || undefined,
              from,
              to,
            },
          );
        }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        options={{ density: false, setting: false }}
        expandable={{ expandedRowRender: (row) => <BeforeAfter row={row} /> }}
      />
    </PageContainer>
  );
}
