import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { AuditRow } from '@yueman/contract/admin';
import { Col, Row, Typography } from 'antd';
import { adminRoutes, tablePage } from '../api.ts';
import { dateTime } from '../format.ts';

const json = (value: unknown) =>
  value === null || value === undefined ? '（无）' : JSON.stringify(value, null, 2);

const columns: ProColumns<AuditRow>[] = [
  { title: 'ID', dataIndex: 'id', width: 80 },
  { title: '时间', dataIndex: 'at', width: 180, render: (_, r) => dateTime(r.at, true) },
  { title: '操作人', dataIndex: 'actor', width: 200 },
  {
    title: '操作',
    dataIndex: 'action',
    width: 180,
    render: (_, r) => <Typography.Text code>{r.action}</Typography.Text>,
  },
  { title: '对象', dataIndex: 'target' },
];

export default function AuditPage() {
  return (
    <PageContainer title="操作日志">
      <ProTable<AuditRow>
        rowKey="id"
        columns={columns}
        search={false}
        headerTitle="所有后台写操作、登录退出与被拒绝的操作（新的在前，展开查看修改前后与来源地址）"
        request={(params) => tablePage(adminRoutes.audit, params)}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        options={{ density: false, setting: false }}
        expandable={{
          expandedRowRender: (row) => (
            <Row gutter={16}>
              <Col span={12}>
                <Typography.Text strong>修改前</Typography.Text>
                <pre className="json-block">{json(row.before)}</pre>
              </Col>
              <Col span={12}>
                <Typography.Text strong>修改后</Typography.Text>
                <pre className="json-block">{json(row.after)}</pre>
              </Col>
            </Row>
          ),
        }}
      />
    </PageContainer>
  );
}
