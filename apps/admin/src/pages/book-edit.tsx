import { UploadOutlined } from '@ant-design/icons';
import {
  ModalForm,
  PageContainer,
  ProCard,
  ProForm,
  ProFormCheckbox,
  ProFormDateTimePicker,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import type { Book, BookWithChapters, Chapter } from '@yueman/contract/admin';
import {
  App,
  Button,
  Col,
  Empty,
  Form,
  Popconfirm,
  Row,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { adminRoutes, call, imageUrl, shown } from '../api.ts';
import { categoryOptions, useCategories } from '../categories.ts';
import { chinaPickerValue, dateTime, inChinaTime, instantOfPicker } from '../format.ts';
import { STATUS_NAMES } from '../names.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';
import { UnlockRulesCard } from '../unlock-rules-card.tsx';
import { ConflictNotice, type ConflictRow, conflictRows, WEEKDAY_NAMES } from './book-conflict.tsx';
import { BatchPricing } from './book-pricing.tsx';

type BookFields = Pick<
  Book,
  | 'title'
  | 'author'
  | 'description'
  | 'aliases'
  | 'categoryId'
  | 'status'
  | 'vipFree'
  | 'published'
  | 'releaseDays'
>;
const BOOK_FIELDS: (keyof BookFields)[] = [
  'title',
  'author',
  'description',
  'aliases',
  'categoryId',
  'status',
  'vipFree',
  'published',
  'releaseDays',
];

interface ChapterFields {
  title: string;
  price: number;
  publishAt: Dayjs | null | undefined;
}

// The picker holds China wall clocks (format.ts): compared and sent as the instants they mean.
const sameTime = (a: string | null, b: Dayjs | null | undefined) =>
  a === null ? !b : b ? dayjs(a).isSame(instantOfPicker(b)) : false;

const same = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;

/** Only the fields the operator changed (the server writes what it is given). */
function changedFields(book: Book, values: BookFields): Partial<BookFields> {
  const changed: Partial<Record<keyof BookFields, unknown>> = {};
  for (const key of BOOK_FIELDS) {
    if (values[key] !== undefined && !same(values[key], book[key])) changed[key] = values[key];
  }
  return changed as Partial<BookFields>;
}

/** The aliases as typed: trimmed, blanks and repeats dropped (as the server saves them). */
const cleanAliases = (typed: unknown) =>
  Array.isArray(typed) ? [...new Set(typed.map((a) => String(a).trim()).filter((a) => a !== ''))] : typed;

/** 别名: a tag each, at most BOOK_TEXT_LIMITS.aliases of BOOK_TEXT_LIMITS.alias characters (the edit call's limits). */
const aliasRules = [
  {
    validator: async (_: unknown, aliases: string[] | undefined) => {
      const list = aliases ?? [];
      if (list.length > BOOK_TEXT_LIMITS.aliases) throw new Error(`最多 ${BOOK_TEXT_LIMITS.aliases} 个别名`);
      const long = list.find((a) => [...a].length > BOOK_TEXT_LIMITS.alias);
      if (long !== undefined)
        throw new Error(`别名最长 ${BOOK_TEXT_LIMITS.alias} 个字：${long.slice(0, 12)}…`);
    },
  },
];

export default function BookEditPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const canWrite = useCan(CATALOGUE_WRITERS);
  const categories = useCategories();
  const [book, setBook] = useState<BookWithChapters>();
  const [missing, setMissing] = useState(false);
  const [editing, setEditing] = useState<Chapter>();
  const [form] = Form.useForm<BookFields>();
  const [chapterForm] = Form.useForm<ChapterFields>();
  // A save refused because someone saved since (409): the saved version, and what it changed, beside the form.
  const [conflict, setConflict] = useState<{ saved: BookWithChapters; rows: ConflictRow[] }>();

  const load = useCallback(async () => {
    const found = await shown(call(adminRoutes.book, { params: { id } }));
    if (!found) {
      setMissing(true);
      return;
    }
    setBook(found);
    setConflict(undefined);
    form.setFieldsValue(Object.fromEntries(BOOK_FIELDS.map((k) => [k, found[k]])) as BookFields);
  }, [id, form]);

  useEffect(() => {
    load();
  }, [load]);

  if (missing) {
    return (
      <PageContainer title="书籍编辑" onBack={() => navigate('/books')}>
        <Empty description="这本书不存在" />
      </PageContainer>
    );
  }
  if (!book) {
    return (
      <PageContainer title="书籍编辑">
        <Skeleton active />
      </PageContainer>
    );
  }

  // On a 409 the operator's typing stays in the form; the saved version is read and what it changed shown.
  const showConflict = async () => {
    const saved = await shown(call(adminRoutes.book, { params: { id } }));
    if (!saved) return;
    const categoryName = (cid: number) => categories.find((c) => c.id === cid)?.name ?? `分类 ${cid}`;
    setConflict({ saved, rows: conflictRows(book, saved, form.getFieldsValue(), categoryName) });
  };

  /** Saves the form's changes over `base` (the book as opened, or the saved version the operator chose to overwrite). */
  const save = async (values: BookFields, base: BookWithChapters = book) => {
    const changes = changedFields(base, values);
    if (Object.keys(changes).length === 0) {
      message.info('没有修改');
      return true;
    }
    const saved = await shown(
      call(
        adminRoutes.editBook,
        { params: { id }, body: { version: base.version, ...changes } },
        { form, onConflict: showConflict },
      ),
    );
    if (saved) {
      setBook({ ...base, ...saved });
      // Saved over another's version: the form shows the book as it now is (their fields kept, these saved).
      if (base !== book) form.setFieldsValue(Object.fromEntries(BOOK_FIELDS.map((k) => [k, saved[k]])));
      setConflict(undefined);
      message.success('已保存');
    }
    return true;
  };

  const saveMineOverSaved = async () => {
    if (!conflict) return;
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    // A field the operator left as they opened it takes the saved version's value: only their own typing goes over.
    const typed = { ...form.getFieldsValue(), ...values };
    const merged = Object.fromEntries(
      BOOK_FIELDS.map((k) => [k, same(typed[k], book[k]) ? conflict.saved[k] : typed[k]]),
    ) as BookFields;
    await save(merged, conflict.saved);
  };

  const uploadCover = async (file: File) => {
    const saved = await shown(call(adminRoutes.uploadCover, { params: { id }, multipart: { image: file } }));
    if (saved) {
      setBook({ ...book, ...saved.book });
      message.success('封面已更新');
    }
  };

  // Only a book no reader has paid for: the server refuses the others (unpublish them instead).
  const remove = async () => {
    const done = await shown(call(adminRoutes.deleteBook, { params: { id } }));
    if (done !== undefined) {
      message.success('已删除');
      navigate('/books');
    }
  };

  const openChapter = (chapter: Chapter) => {
    setEditing(chapter);
    chapterForm.setFieldsValue({
      title: chapter.title,
      price: chapter.price,
      publishAt: chinaPickerValue(chapter.publishAt),
    });
  };

  const saveChapter = async (values: ChapterFields) => {
    if (!editing) return true;
    const body: { title?: string; price?: number; publishAt?: string | null } = {};
    if (values.title !== editing.title) body.title = values.title;
    if (values.price !== editing.price) body.price = values.price;
    if (!sameTime(editing.publishAt, values.publishAt)) body.publishAt = instantOfPicker(values.publishAt);
    if (Object.keys(body).length === 0) return true;
    const saved = await shown(
      call(adminRoutes.editChapter, { params: { id, number: editing.number }, body }, { form: chapterForm }),
    );
    if (!saved) return false;
    setBook({
      ...book,
      chapters: book.chapters.map((c) => (c.number === saved.number ? { ...c, ...saved } : c)),
    });
    message.success(`第 ${saved.number} 话已保存`);
    return true;
  };

  const columns: TableColumnsType<Chapter> = [
    { title: '话', dataIndex: 'number', width: 70 },
    { title: '标题', dataIndex: 'title' },
    {
      title: '价格（阅币）',
      dataIndex: 'price',
      width: 120,
      render: (p: number) => (p === 0 ? <Tag color="green">免费</Tag> : p),
    },
    { title: '页数', dataIndex: 'pages', width: 80 },
    {
      title: inChinaTime('定时发布'),
      dataIndex: 'publishAt',
      width: 180,
      render: (at: string | null) => (at ? <Tag color="orange">{dateTime(at)}</Tag> : '已发布'),
    },
  ];
  if (canWrite) {
    columns.push({
      title: '操作',
      key: 'edit',
      width: 90,
      render: (_, chapter) => (
        <Button type="link" size="small" onClick={() => openChapter(chapter)}>
          编辑
        </Button>
      ),
    });
  }

  return (
    <PageContainer
      title={`《${book.title}》`}
      subTitle={`ID ${book.id}`}
      onBack={() => navigate('/books')}
      tags={[
        book.published ? (
          <Tag key="p" color="success">
            上架
          </Tag>
        ) : (
          <Tag key="p">下架</Tag>
        ),
        <Tag key="s">{STATUS_NAMES[book.status]}</Tag>,
      ]}
      extra={[
        <Button key="reader" href={`/book/${book.id}`} target="_blank">
          在阅读端查看
        </Button>,
        ...(canWrite
          ? [
              <Popconfirm
                key="delete"
                title="删除这本书？"
                description="章节一并删除，不可恢复；有读者购买过的书不能删除，请改为下架。"
                okText="删除"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={remove}
              >
                <Button danger>删除</Button>
              </Popconfirm>,
            ]
          : []),
      ]}
    >
      <Row gutter={16}>
        <Col span={16}>
          <ProCard title="基本信息" bordered>
            {conflict && (
              <ConflictNotice rows={conflict.rows} onSaveMine={saveMineOverSaved} onTakeSaved={load} />
            )}
            <ProForm<BookFields>
              name="book"
              form={form}
              disabled={!canWrite}
              onFinish={save}
              layout="horizontal"
              labelCol={{ span: 4 }}
              wrapperCol={{ span: 18 }}
              submitter={
                canWrite
                  ? {
                      searchConfig: { submitText: '保存', resetText: '重置' },
                      render: (_, dom) => (
                        <Form.Item wrapperCol={{ offset: 4 }}>{<Space>{dom}</Space>}</Form.Item>
                      ),
                    }
                  : false
              }
            >
              <ProFormText
                name="title"
                label="书名"
                rules={[{ required: true, whitespace: true, message: '请输入书名' }]}
              />
              <ProFormText
                name="author"
                label="作者"
                rules={[{ required: true, whitespace: true, message: '请输入作者' }]}
              />
              <ProFormSelect
                name="aliases"
                label="别名"
                mode="tags"
                tooltip={`读者搜索别名、别名的拼音或首字母都能找到这本书。最多 ${BOOK_TEXT_LIMITS.aliases} 个，每个不超过 ${BOOK_TEXT_LIMITS.alias} 个字`}
                placeholder="昵称、曾用名、日文或韩文原名，输入后按回车"
                normalize={cleanAliases}
                rules={aliasRules}
                fieldProps={{
                  open: false,
                  suffixIcon: null,
                  tokenSeparators: ['\n'],
                  maxCount: BOOK_TEXT_LIMITS.aliases,
                }}
              />
              <ProFormTextArea name="description" label="简介" fieldProps={{ rows: 4, maxLength: 2000 }} />
              <ProFormSelect name="categoryId" label="分类" options={categoryOptions(categories)} />
              <ProFormRadio.Group
                name="status"
                label="状态"
                options={[
                  { label: STATUS_NAMES.serialize, value: 'serialize' },
                  { label: STATUS_NAMES.finish, value: 'finish' },
                ]}
              />
              <ProFormSwitch name="vipFree" label="VIP免费" />
              <ProFormSwitch
                name="published"
                label="上架"
                fieldProps={{ checkedChildren: '上架', unCheckedChildren: '下架' }}
              />
              <ProFormCheckbox.Group
                name="releaseDays"
                label="更新日"
                tooltip="连载中的书在读者“更新日历”里的这几天出现（北京时间）；定时发布的章节另在其发布当天出现"
                options={WEEKDAY_NAMES.map((label, i) => ({ label, value: i + 1 }))}
                normalize={(days: number[] | undefined) => [...(days ?? [])].sort((a, b) => a - b)}
              />
            </ProForm>
          </ProCard>
        </Col>
        <Col span={8}>
          <ProCard title="封面" bordered>
            <Space direction="vertical" size={12}>
              {book.cover ? (
                <img
                  className="cover-preview"
                  src={imageUrl(book.cover, 200)}
                  alt="封面"
                  data-testid="cover"
                />
              ) : (
                <Typography.Text type="secondary">暂无封面</Typography.Text>
              )}
              {canWrite && (
                <Upload
                  accept="image/png,image/jpeg,image/webp"
                  showUploadList={false}
                  customRequest={({ file, onSuccess, onError }) => {
                    uploadCover(file as File).then(
                      () => onSuccess?.(null),
                      (err: Error) => onError?.(err),
                    );
                  }}
                >
                  <Button icon={<UploadOutlined />}>上传新封面</Button>
                </Upload>
              )}
            </Space>
          </ProCard>
          {canWrite && (
            <ProCard title="批量定价" bordered style={{ marginTop: 16 }}>
              <BatchPricing book={book} onSaved={setBook} />
            </ProCard>
          )}
        </Col>
      </Row>
      <UnlockRulesCard bookId={book.id} canWrite={canWrite} />
      <ProCard title={`章节（${book.chapters.length}）`} bordered style={{ marginTop: 16 }}>
        <Table<Chapter>
          rowKey="number"
          size="middle"
          columns={columns}
          dataSource={book.chapters}
          pagination={{ defaultPageSize: 50, hideOnSinglePage: true }}
          data-testid="chapters"
        />
      </ProCard>
      <ModalForm<ChapterFields>
        name="chapter"
        title={editing ? `编辑第 ${editing.number} 话` : ''}
        form={chapterForm}
        open={editing !== undefined}
        width={480}
        modalProps={{ destroyOnClose: false, onCancel: () => setEditing(undefined) }}
        onOpenChange={(open) => {
          if (!open) setEditing(undefined);
        }}
        dateFormatter={false}
        onFinish={async (values) => {
          const done = await saveChapter(values);
          if (done) setEditing(undefined);
          return done;
        }}
      >
        <ProFormText
          name="title"
          label="标题"
          rules={[{ required: true, whitespace: true, message: '请输入标题' }]}
        />
        <ProFormDigit
          name="price"
          label="价格（阅币，0 为免费）"
          min={0}
          max={100000}
          fieldProps={{ precision: 0 }}
        />
        <ProFormDateTimePicker
          name="publishAt"
          label={inChinaTime('定时发布')}
          tooltip="北京时间。未来的时间：到时才对读者可见；清空即立即发布"
          fieldProps={{ style: { width: '100%' } }}
        />
      </ModalForm>
    </PageContainer>
  );
}
