import { DragSortTable } from '@ant-design/pro-components';
import type { Section, SectionBook } from '@yueman/contract/admin';
import { App, Button, Card, Empty, Skeleton, Space, Tabs, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { BookPicker } from '../book-picker.tsx';
import { SECTION_NAMES } from '../names.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';

function SectionEditor({ section, onSaved }: { section: Section; onSaved: (saved: Section) => void }) {
  const { message } = App.useApp();
  const canWrite = useCan(CATALOGUE_WRITERS);
  const [books, setBooks] = useState<SectionBook[]>(section.books);
  const [saving, setSaving] = useState(false);
  useEffect(() => setBooks(section.books), [section]);

  const dirty = books.map((b) => b.bookId).join() !== section.books.map((b) => b.bookId).join();

  const save = async () => {
    setSaving(true);
    const saved = await shown(
      call(adminRoutes.arrangeSection, {
        params: { type: section.type },
        body: { bookIds: books.map((b) => b.bookId) },
      }),
    );
    setSaving(false);
    if (saved) {
      message.success('已保存');
      onSaved(saved);
    }
  };

  return (
    <Card
      size="small"
      title={SECTION_NAMES[section.type]}
      extra={<Typography.Text type="secondary">类型 {section.type}，拖动左侧把手调整顺序</Typography.Text>}
      data-testid={`section-${section.type}`}
    >
      <DragSortTable<SectionBook & { sort?: number }>
        rowKey="bookId"
        dragSortKey={canWrite ? 'sort' : undefined}
        dataSource={books}
        onDragSortEnd={(_before, _after, next) =>
          setBooks(next.map(({ bookId, title }) => ({ bookId, title })))
        }
        search={false}
        options={false}
        pagination={false}
        size="small"
        locale={{ emptyText: <Empty description="这个版块还没有书" /> }}
        columns={[
          ...(canWrite ? [{ title: '排序', dataIndex: 'sort', width: 60, className: 'drag-visible' }] : []),
          { title: '#', key: 'index', width: 50, render: (_, __, i) => i + 1 },
          { title: '书籍 ID', dataIndex: 'bookId', width: 100 },
          { title: '书名', dataIndex: 'title' },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'remove',
                  width: 90,
                  render: (_: unknown, row: SectionBook) => (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() => setBooks(books.filter((b) => b.bookId !== row.bookId))}
                    >
                      移除
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {canWrite && (
        <Space style={{ marginTop: 12 }} wrap>
          <BookPicker
            exclude={books.map((b) => b.bookId)}
            onPick={(book) => setBooks((list) => [...list, book])}
          />
          <Button type="primary" onClick={save} loading={saving} disabled={!dirty}>
            保存
          </Button>
          <Button onClick={() => setBooks(section.books)} disabled={!dirty}>
            撤销修改
          </Button>
          {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
        </Space>
      )}
    </Card>
  );
}

export function SectionsTab() {
  const [sections, setSections] = useState<Section[]>();
  const load = useCallback(async () => {
    setSections((await shown(call(adminRoutes.homeSections, {}))) ?? []);
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  if (!sections) return <Skeleton active />;
  return (
    <Tabs
      tabPosition="left"
      items={sections.map((section) => ({
        key: section.type,
        label: `${SECTION_NAMES[section.type] ?? section.type}（${section.books.length}）`,
        children: (
          <SectionEditor
            section={section}
            onSaved={(saved) => setSections(sections.map((s) => (s.type === saved.type ? saved : s)))}
          />
        ),
      }))}
    />
  );
}
