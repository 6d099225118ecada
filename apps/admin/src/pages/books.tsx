import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { BookRow, BookStatus } from '@yueman/contract/admin';
import { Tag } from 'antd';
import { useNavigate } from 'react-router';
import { adminRoutes, imageUrl, tablePage } from '../api.ts';
import { categoryOptions, useCategories } from '../categories.ts';
import { dateTime, inChinaTime } from '../format.ts';
import { STATUS_NAMES } from '../names.ts';

const statusEnum = Object.fromEntries(
  (Object.keys(STATUS_NAMES) as BookStatus[]).map((s) => [s, { text: STATUS_NAMES[s] }]),
);

export default function BooksPage() {
  const navigate = useNavigate();
  const categories = useCategories();

  const columns: ProColumns<BookRow>[] = [
    { title: 'ID', dataIndex: 'id', width: 80, search: false },
    {
      title: '封面',
      dataIndex: 'cover',
      width: 70,
      search: false,
      render: (_, row) =>
        row.cover ? (
          <img src={imageUrl(row.cover, 200)} alt="" style={{ width: 40, borderRadius: 4 }} />
        ) : (
          '-'
        ),
    },
    { title: '关键字', dataIndex: 'q', hideInTable: true, fieldProps: { placeholder: '书名或作者' } },
    { title: '书名', dataIndex: 'title', search: false, ellipsis: true },
    { title: '作者', dataIndex: 'author', search: false, width: 140, ellipsis: true },
    {
      title: '分类',
      dataIndex: 'categoryId',
      width: 110,
      valueType: 'select',
      fieldProps: { options: categoryOptions(categories) },
      render: (_, row) => row.category,
    },
    {
      title: '状态',
      dataIndex: 'publishStatus',
      width: 100,
      valueType: 'select',
      valueEnum: statusEnum,
      render: (_, row) => (
        <Tag color={row.publishStatus === 'finish' ? 'green' : 'blue'}>{STATUS_NAMES[row.publishStatus]}</Tag>
      ),
    },
    {
      title: '上架',
      dataIndex: 'published',
      width: 80,
      search: false,
      render: (_, row) => (row.published ? <Tag color="success">上架</Tag> : <Tag>下架</Tag>),
    },
    { title: '章节数', dataIndex: 'chapterCount', width: 90, search: false },
    {
      title: 'VIP免费',
      dataIndex: 'vipFree',
      width: 90,
      search: false,
      render: (_, row) => (row.vipFree ? <Tag color="gold">是</Tag> : '否'),
    },
    {
      title: inChinaTime('更新时间'),
      dataIndex: 'updatedAt',
      width: 190,
      search: false,
      render: (_, row) => dateTime(row.updatedAt),
    },
  ];

  return (
    <PageContainer title="书籍">
      <ProTable<BookRow>
        rowKey="id"
        columns={columns}
        request={(params) =>
          tablePage(adminRoutes.books, params, {
            q: typeof params.q === 'string' ? params.q.trim() : undefined,
            categoryId: params.categoryId as number | undefined,
            status: params.publishStatus as BookStatus | undefined,
          })
        }
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        onRow={(row) => ({ onClick: () => navigate(`/books/${row.id}`), style: { cursor: 'pointer' } })}
        options={{ density: false, setting: false }}
        dateFormatter="string"
        headerTitle="书籍列表"
      />
    </PageContainer>
  );
}
