import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { Complaint } from '@yueman/contract/admin';
import { Typography } from 'antd';
import { adminRoutes, tablePage } from '../api.ts';
import { dateTime, inChinaTime } from '../format.ts';

const columns: ProColumns<Complaint>[] = [
  { title: 'ID', dataIndex: 'id', width: 70 },
  { title: '原因', dataIndex: 'reason', width: 160 },
  { title: '内容', dataIndex: 'content', ellipsis: true, render: (_, r) => r.content || '-' },
  { title: '联系方式', dataIndex: 'contact', width: 160, render: (_, r) => r.contact || '-' },
  {
    title: '页面',
    dataIndex: 'pageUrl',
    width: 240,
    ellipsis: true,
    render: (_, r) =>
      r.pageUrl ? <Typography.Text copyable={{ text: r.pageUrl }}>{r.pageUrl}</Typography.Text> : '-',
  },
  { title: '用户 ID', dataIndex: 'userId', width: 90, render: (_, r) => r.userId ?? '-' },
  { title: inChinaTime('时间'), dataIndex: 'createdAt', width: 180, render: (_, r) => dateTime(r.createdAt) },
];

export default function ComplaintsPage() {
  return (
    <PageContainer title="投诉">
      <ProTable<Complaint>
        rowKey="id"
        columns={columns}
        search={false}
        headerTitle="读者投诉与举报（新的在前）"
        request={(params) => tablePage(adminRoutes.complaints, params)}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        options={{ density: false, setting: false }}
      />
    </PageContainer>
  );
}
