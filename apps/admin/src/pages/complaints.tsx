import { type ActionType, PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { Complaint, ComplaintState, ComplaintWithNotes } from '@yueman/contract/admin';
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Input,
  List,
  Popconfirm,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, adminRoutes, call, shown, tablePage } from '../api.ts';
import { dateTime as chinaTime } from '../format.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';

// The readers' complaints: an inbox by state (新 / 处理中 / 已处理), each with its handler, notes, the reader, and a
// link that opens the reported page in the reader app. Times are China time (UTC+8) whatever the operator's clock.

const STATES: Record<ComplaintState, { text: string; color: string }> = {
  new: { text: '新', color: 'blue' },
  handling: { text: '处理中', color: 'orange' },
  done: { text: '已处理', color: 'green' },
};

/** A chapter taken down from a complaint waits for a publish time no one reaches (the catalogue hides it until then). */
const TAKEN_DOWN_UNTIL = '2099-12-31T16:00:00.000Z';

/**
 * The reader app's address as the console opens it: marked `from=console`, so the operator's desktop browser is shown
 * the page itself, not the reader app's PC page (its QR code).
 */
const fromConsole = (path: string) => {
  const url = new URL(path, location.origin);
  url.searchParams.set('from', 'console');
  return `${url.pathname}${url.search}${url.hash}`;
};

/** The reported page in the reader app: the chapter, opened at the page (?page=N). */
const pageHref = (c: Complaint) =>
  c.bookId && c.chapterNumber
    ? fromConsole(`/book/read/${c.bookId}/${c.chapterNumber}${c.pageNumber ? `?page=${c.pageNumber}` : ''}`)
    : null;

function PageLink({ complaint: c }: { complaint: Complaint }) {
  const href = pageHref(c);
  if (!href) {
    if (!c.pageUrl) return <Typography.Text type="secondary">未指明页面</Typography.Text>;
    // A complaint from the general form names the page it came from: opened as it is, in the reader app.
    return (
      <a
        href={c.pageUrl.startsWith('/') && !c.pageUrl.startsWith('//') ? fromConsole(c.pageUrl) : undefined}
        target="_blank"
        rel="noreferrer"
      >
        读者来自的页面
      </a>
    );
  }
  const title = c.bookTitle ? `《${c.bookTitle}》` : `书籍 ${c.bookId}`;
  return (
    <a href={href} target="_blank" rel="noreferrer" data-testid="complaint-page-link">
      {title}第{c.chapterNumber}话{c.pageNumber ? ` 第${c.pageNumber}页` : ''}
    </a>
  );
}

const ReaderLink = ({ complaint: c }: { complaint: Complaint }) =>
  c.userId ? (
    <Link to={`/readers/${c.userId}`}>读者 {c.userId}</Link>
  ) : (
    <Typography.Text type="secondary">未登录的游客</Typography.Text>
  );

const StateTag = ({ state }: { state: ComplaintState }) => (
  <Tag color={STATES[state].color}>{STATES[state].text}</Tag>
);

function ComplaintDrawer(props: { id: number | null; onClose(): void; onChanged(): void }) {
  const [shownComplaint, setShown] = useState<ComplaintWithNotes | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const writesCatalogue = useCan(CATALOGUE_WRITERS);

  useEffect(() => {
    setShown(null);
    setText('');
    if (props.id === null) return;
    let current = true;
    void shown(call(adminRoutes.complaint, { params: { id: props.id } })).then((got) => {
      if (current && got) setShown(got);
    });
    return () => {
      current = false;
    };
  }, [props.id]);

  const run = async (work: () => Promise<ComplaintWithNotes>, said: string) => {
    setBusy(true);
    try {
      setShown(await work());
      message.success(said);
      props.onChanged();
      return true;
    } catch (err) {
      // Someone moved it meanwhile: the answer carries the complaint as it is now (the warning says who has it).
      if (err instanceof ApiError && err.code === 409 && err.data) setShown(err.data as ComplaintWithNotes);
      props.onChanged();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const c = shownComplaint?.complaint;
  const move = (state: ComplaintState, said: string) =>
    c &&
    run(
      () => call(adminRoutes.setComplaintState, { params: { id: c.id }, body: { from: c.state, state } }),
      said,
    );
  const note = async (kind: 'note' | 'reply') => {
    if (!c || !text.trim()) return;
    if (
      await run(
        () => call(adminRoutes.addComplaintNote, { params: { id: c.id }, body: { kind, text } }),
        '已记录',
      )
    )
      setText('');
  };
  const noteTakeDown = (what: string) =>
    c && call(adminRoutes.addComplaintNote, { params: { id: c.id }, body: { kind: 'note', text: what } });

  const takeDownChapter = async () => {
    if (!c?.bookId || !c.chapterNumber) return;
    const ok = await shown(
      call(adminRoutes.editChapter, {
        params: { id: c.bookId, number: c.chapterNumber },
        body: { publishAt: TAKEN_DOWN_UNTIL },
      }),
    );
    if (ok)
      await run(
        async () => (await noteTakeDown(`已下架第${c.chapterNumber}话`)) as ComplaintWithNotes,
        '已下架本话',
      );
  };
  const takeDownBook = async () => {
    if (!c?.bookId) return;
    const book = await shown(call(adminRoutes.book, { params: { id: c.bookId } }));
    if (!book) return;
    const ok = await shown(
      call(adminRoutes.editBook, {
        params: { id: c.bookId },
        body: { version: book.version, published: false },
      }),
    );
    if (ok) await run(async () => (await noteTakeDown('已下架本书')) as ComplaintWithNotes, '已下架本书');
  };

  const chapterDown = c?.chapterPublishAt !== null;
  const bookDown = c?.bookPublished === false;
  const notCatalogue = '下架由编辑或所有者操作（书籍页）';

  return (
    <Drawer
      open={props.id !== null}
      onClose={props.onClose}
      width={640}
      title={c ? `举报 #${c.id}` : '举报'}
      loading={!c}
      destroyOnHidden
    >
      {c && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered labelStyle={{ width: 120 }}>
            <Descriptions.Item label="状态">
              <Space>
                <StateTag state={c.state} />
                {c.handler && <span data-testid="complaint-handler">{c.handler}</span>}
                {c.stateAt && (
                  <Typography.Text type="secondary">{chinaTime(c.stateAt)}（北京时间）</Typography.Text>
                )}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="原因">{c.reason}</Descriptions.Item>
            <Descriptions.Item label="内容">{c.content || '-'}</Descriptions.Item>
            <Descriptions.Item label="举报页面">
              <Space wrap>
                <PageLink complaint={c} />
                {bookDown && <Tag>本书已下架</Tag>}
                {!bookDown && c.chapterNumber !== null && chapterDown && <Tag>本话读者不可见</Tag>}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="读者">
              <ReaderLink complaint={c} />
            </Descriptions.Item>
            <Descriptions.Item label="联系方式">
              {c.contact ? (
                <Typography.Text copyable={{ text: c.contact, tooltips: ['复制', '已复制'] }}>
                  {c.contact}
                </Typography.Text>
              ) : (
                <Typography.Text type="secondary">读者没有留下联系方式</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="提交时间">{chinaTime(c.createdAt)}（北京时间）</Descriptions.Item>
          </Descriptions>

          <Space wrap>
            {c.state === 'new' && (
              <Button type="primary" loading={busy} onClick={() => move('handling', '已接手')}>
                接手处理
              </Button>
            )}
            {c.state === 'handling' && (
              <Button type="primary" loading={busy} onClick={() => move('done', '已标为已处理')}>
                标为已处理
              </Button>
            )}
            {c.state === 'handling' && (
              <Button loading={busy} onClick={() => move('new', '已退回')}>
                退回为新
              </Button>
            )}
            {c.state === 'done' && (
              <Button loading={busy} onClick={() => move('handling', '已重新打开')}>
                重新打开
              </Button>
            )}
            {c.bookId && c.chapterNumber && (
              <Tooltip title={writesCatalogue ? '' : notCatalogue}>
                <Popconfirm
                  title="下架本话？"
                  description="读者将看不到这一话（目录、阅读和购买）；可在书籍页恢复。"
                  okText="下架"
                  cancelText="取消"
                  onConfirm={takeDownChapter}
                  disabled={!writesCatalogue || chapterDown || bookDown}
                >
                  <Button danger disabled={!writesCatalogue || chapterDown || bookDown}>
                    下架本话
                  </Button>
                </Popconfirm>
              </Tooltip>
            )}
            {c.bookId && (
              <Tooltip title={writesCatalogue ? '' : notCatalogue}>
                <Popconfirm
                  title="下架本书？"
                  description="读者将在列表、搜索和详情中看不到这本书；可在书籍页重新上架。"
                  okText="下架"
                  cancelText="取消"
                  onConfirm={takeDownBook}
                  disabled={!writesCatalogue || bookDown}
                >
                  <Button danger disabled={!writesCatalogue || bookDown}>
                    下架本书
                  </Button>
                </Popconfirm>
              </Tooltip>
            )}
          </Space>

          <Typography.Title level={5} style={{ margin: 0 }}>
            备注与回复
          </Typography.Title>
          {shownComplaint.notes.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有备注" />
          ) : (
            <List
              size="small"
              bordered
              dataSource={shownComplaint.notes}
              renderItem={(n) => (
                <List.Item data-testid="complaint-note">
                  <List.Item.Meta
                    title={
                      <Space>
                        {n.kind === 'reply' ? <Tag color="purple">已回复读者</Tag> : <Tag>备注</Tag>}
                        <span>{n.operator}</span>
                        <Typography.Text type="secondary">
                          {chinaTime(n.createdAt)}（北京时间）
                        </Typography.Text>
                      </Space>
                    }
                    description={
                      <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{n.text}</Typography.Text>
                    }
                  />
                </List.Item>
              )}
            />
          )}
          <Input.TextArea
            aria-label="备注"
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={500}
            showCount
            rows={3}
            placeholder={
              c.contact
                ? '写备注；或复制上面的联系方式回复读者后，把回复的内容记在这里'
                : '写备注（处理经过、结论）'
            }
          />
          <Space>
            <Button loading={busy} disabled={!text.trim()} onClick={() => note('note')}>
              添加备注
            </Button>
            {c.contact && (
              <Button loading={busy} disabled={!text.trim()} onClick={() => note('reply')}>
                记录回复
              </Button>
            )}
          </Space>
        </Space>
      )}
    </Drawer>
  );
}

export default function ComplaintsPage() {
  const [state, setState] = useState<ComplaintState | 'all'>('all');
  const [open, setOpen] = useState<number | null>(null);
  const table = useRef<ActionType>(null);

  const columns: ProColumns<Complaint>[] = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '状态', dataIndex: 'state', width: 90, render: (_, r) => <StateTag state={r.state} /> },
    { title: '原因', dataIndex: 'reason', width: 110 },
    { title: '内容', dataIndex: 'content', ellipsis: true, render: (_, r) => r.content || '-' },
    { title: '举报页面', dataIndex: 'pageUrl', width: 240, render: (_, r) => <PageLink complaint={r} /> },
    { title: '读者', dataIndex: 'userId', width: 110, render: (_, r) => <ReaderLink complaint={r} /> },
    { title: '处理人', dataIndex: 'handler', width: 100, render: (_, r) => r.handler ?? '-' },
    { title: '备注', dataIndex: 'notes', width: 60 },
    {
      title: '时间（北京时间）',
      dataIndex: 'createdAt',
      width: 150,
      render: (_, r) => chinaTime(r.createdAt),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 80,
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r.id)}>
          处理
        </Button>
      ),
    },
  ];

  return (
    <PageContainer title="投诉">
      <ProTable<Complaint>
        rowKey="id"
        actionRef={table}
        columns={columns}
        search={false}
        headerTitle="读者投诉与举报（新的在前）"
        params={{ state }}
        request={(params) => tablePage(adminRoutes.complaints, params, state === 'all' ? {} : { state })}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: state,
            items: [
              { key: 'all', label: '全部' },
              { key: 'new', label: '新' },
              { key: 'handling', label: '处理中' },
              { key: 'done', label: '已处理' },
            ],
            onChange: (key) => setState((key as ComplaintState | 'all') ?? 'all'),
          },
        }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        options={{ density: false, setting: false }}
      />
      <ComplaintDrawer id={open} onClose={() => setOpen(null)} onChanged={() => table.current?.reload()} />
    </PageContainer>
  );
}
