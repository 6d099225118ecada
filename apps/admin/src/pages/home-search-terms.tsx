import { ReloadOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { type Book, SEARCH_TERM_DAYS, type SearchTerm } from '@yueman/contract/admin';
import {
  App,
  Button,
  Input,
  Modal,
  Segmented,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { adminRoutes, call, shown } from '../api.ts';
import { BookPicker } from '../book-picker.tsx';

type Days = (typeof SEARCH_TERM_DAYS)[number];

const DAY_LABELS: Record<Days, string> = { 1: '今天', 7: '近 7 天', 30: '近 30 天' };

interface Terms {
  searched: SearchTerm[];
  missed: SearchTerm[];
}

/**
 * What readers searched (GET /api/admin/home/search-terms): the most searched keywords, each one a hot word in a
 * click, and the keywords that found nothing, each one an alias of a book in a few (AliasDialog). Days are China time.
 */
export function SearchTermsCard({
  hotWords,
  canWrite,
  full,
  onHotWord,
}: {
  /** The hot words being edited: a keyword already among them cannot be added again. */
  hotWords: string[];
  canWrite: boolean;
  /** The hot-word list is at its limit. */
  full: boolean;
  onHotWord: (keyword: string) => void;
}) {
  const [days, setDays] = useState<Days>(7);
  const [terms, setTerms] = useState<Terms>();
  const [loading, setLoading] = useState(false);
  const [aliasFor, setAliasFor] = useState<string>();

  const load = useCallback(async () => {
    setLoading(true);
    const found = await shown(call(adminRoutes.searchTerms, { query: { days } }));
    setLoading(false);
    if (found) setTerms(found);
  }, [days]);

  useEffect(() => {
    load();
  }, [load]);

  const keywordColumn = {
    title: '搜索词',
    dataIndex: 'keyword',
    ellipsis: true,
  };

  const searchedColumns: TableColumnsType<SearchTerm> = [
    { title: '#', key: 'rank', width: 50, render: (_, __, i) => i + 1 },
    keywordColumn,
    { title: '搜索次数', dataIndex: 'searches', width: 90, align: 'right' },
    {
      title: '无结果',
      dataIndex: 'misses',
      width: 80,
      align: 'right',
      render: (misses: number) =>
        misses > 0 ? <Typography.Text type="warning">{misses}</Typography.Text> : 0,
    },
  ];
  if (canWrite) {
    searchedColumns.push({
      title: '操作',
      key: 'hot',
      width: 100,
      render: (_, row) =>
        hotWords.includes(row.keyword) ? (
          <Tag color="success">已是热词</Tag>
        ) : (
          <Tooltip title={full ? '热词已满，请先删除一些' : undefined}>
            <Button type="link" size="small" disabled={full} onClick={() => onHotWord(row.keyword)}>
              加为热词
            </Button>
          </Tooltip>
        ),
    });
  }

  const missedColumns: TableColumnsType<SearchTerm> = [
    { title: '#', key: 'rank', width: 50, render: (_, __, i) => i + 1 },
    keywordColumn,
    { title: '无结果次数', dataIndex: 'misses', width: 100, align: 'right' },
    { title: '搜索次数', dataIndex: 'searches', width: 90, align: 'right' },
  ];
  if (canWrite) {
    missedColumns.push({
      title: '操作',
      key: 'alias',
      width: 100,
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setAliasFor(row.keyword)}>
          加为别名
        </Button>
      ),
    });
  }

  const table = (name: string, rows: SearchTerm[], columns: TableColumnsType<SearchTerm>, empty: string) => (
    <Table<SearchTerm>
      rowKey="keyword"
      size="small"
      loading={loading}
      columns={columns}
      dataSource={rows}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
      locale={{ emptyText: empty }}
      data-testid={name}
    />
  );

  return (
    <ProCard
      title="读者的搜索"
      subTitle="按中国时间统计，约每半分钟更新"
      bordered
      extra={
        <Space>
          <Segmented<Days>
            value={days}
            onChange={setDays}
            options={SEARCH_TERM_DAYS.map((d) => ({ label: DAY_LABELS[d], value: d }))}
          />
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={load} />
          </Tooltip>
        </Space>
      }
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        热门搜索
      </Typography.Title>
      {table('searched-terms', terms?.searched ?? [], searchedColumns, '这段时间没有搜索')}
      <Typography.Title level={5}>没有结果的搜索</Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        读者用这些词没有找到书：如果是某本书的别称，把它加为这本书的别名；也可能是读者想看而书库里还没有的书。
      </Typography.Paragraph>
      {table('missed-terms', terms?.missed ?? [], missedColumns, '这段时间没有无结果的搜索')}
      <AliasDialog keyword={aliasFor} onClose={() => setAliasFor(undefined)} />
    </ProCard>
  );
}

/**
 * Adds a keyword that found nothing as an alias of a book: pick the book, check or adjust the alias, save through
 * the book's edit call (its version: a 409 reloads the book, as the edit screen does).
 */
function AliasDialog({ keyword, onClose }: { keyword: string | undefined; onClose: () => void }) {
  const { message } = App.useApp();
  const [book, setBook] = useState<Book>();
  const [alias, setAlias] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setBook(undefined);
    setAlias(keyword ?? '');
  }, [keyword]);

  const pick = async (bookId: number) => {
    const found = await shown(call(adminRoutes.book, { params: { id: bookId } }));
    if (found) setBook(found);
  };

  const text = alias.trim();
  const problem = !book
    ? '请先选择书籍'
    : text === ''
      ? '请输入别名'
      : [...text].length > BOOK_TEXT_LIMITS.alias
        ? `别名最长 ${BOOK_TEXT_LIMITS.alias} 个字`
        : book.aliases.includes(text)
          ? '已是这本书的别名'
          : book.aliases.length >= BOOK_TEXT_LIMITS.aliases
            ? `这本书已有 ${BOOK_TEXT_LIMITS.aliases} 个别名，请先在书籍编辑中删除一些`
            : undefined;

  const save = async () => {
    if (!book || problem) return;
    setSaving(true);
    const saved = await shown(
      call(
        adminRoutes.editBook,
        { params: { id: book.id }, body: { version: book.version, aliases: [...book.aliases, text] } },
        { onConflict: () => pick(book.id) },
      ),
    );
    setSaving(false);
    if (saved) {
      message.success(`已加为《${saved.title}》的别名`);
      onClose();
    }
  };

  return (
    <Modal
      title="加为书籍的别名"
      open={keyword !== undefined}
      onCancel={onClose}
      onOk={save}
      okText="加为别名"
      cancelText="取消"
      okButtonProps={{ disabled: problem !== undefined, loading: saving }}
      destroyOnHidden
      width={520}
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          保存后读者搜索这个别名、它的拼音或首字母就能找到这本书。
        </Typography.Text>
        <Input
          addonBefore="别名"
          value={alias}
          onChange={(e) => setAlias(e.target.value)}
          aria-label="别名"
        />
        <BookPicker onPick={(picked) => pick(picked.bookId)} exclude={[]} />
        {book && (
          <div data-testid="alias-book">
            <Typography.Text strong>《{book.title}》</Typography.Text>
            <Typography.Text type="secondary">
              {' '}
              {book.author} · ID {book.id}{' '}
            </Typography.Text>
            <Link to={`/books/${book.id}`}>打开书籍编辑</Link>
            <div style={{ marginTop: 8 }}>
              <Typography.Text type="secondary">现有别名：</Typography.Text>
              {book.aliases.length === 0 ? (
                <Typography.Text type="secondary">无</Typography.Text>
              ) : (
                book.aliases.map((a) => <Tag key={a}>{a}</Tag>)
              )}
            </div>
          </div>
        )}
        {book && problem && <Typography.Text type="warning">{problem}</Typography.Text>}
      </Space>
    </Modal>
  );
}
