import { InboxOutlined } from '@ant-design/icons';
import {
  type ActionType,
  PageContainer,
  ProCard,
  type ProColumns,
  ProForm,
  ProFormDigit,
  ProFormSwitch,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import type { ImportJob } from '@yueman/contract/admin';
import { Alert, App, Form, Progress, Space, Table, Tag, Typography, Upload, type UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { adminRoutes, call, shown, tablePage } from '../api.ts';
import { dateTime, inChinaTime } from '../format.ts';
import { OUTCOME_NAMES } from '../names.ts';

interface Fields {
  files?: UploadFile[];
  title?: string;
  bookId?: number;
  freeChapters?: number;
  price?: number;
  vipFree: boolean;
  replace: boolean;
  dryRun: boolean;
}

const POLL_MS = 500;

/** The job in an answer: `{ import: ImportJob }`, or the job itself. */

const percentOf = (job: ImportJob) =>
  job.state === 'done' ? 100 : job.pagesTotal > 0 ? Math.floor((job.pagesDone / job.pagesTotal) * 100) : 0;

const STATE_TAGS: Record<ImportJob['state'], { color: string; text: string }> = {
  queued: { color: 'default', text: '排队中' },
  running: { color: 'processing', text: '导入中' },
  done: { color: 'success', text: '完成' },
  failed: { color: 'error', text: '失败' },
};

const outcomeColor = { added: 'green', unchanged: 'default', replaced: 'orange', planned: 'blue' } as const;

function JobResult({ job }: { job: ImportJob }) {
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12} data-testid="import-result">
      <Space size={16} wrap>
        <Typography.Text strong>{job.fileName}</Typography.Text>
        <Tag color={STATE_TAGS[job.state].color}>{STATE_TAGS[job.state].text}</Tag>
        {job.dryRun && <Tag color="blue">试运行（未写入）</Tag>}
      </Space>
      <Progress
        percent={percentOf(job)}
        status={job.state === 'failed' ? 'exception' : job.state === 'done' ? 'success' : 'active'}
        format={(p) => `${p}%（${job.pagesDone}/${job.pagesTotal} 页）`}
        data-testid="import-progress"
      />
      {job.state === 'queued' && job.message && <Alert type="info" showIcon message={job.message} />}
      {job.state === 'failed' && (
        <Alert type="error" showIcon message="导入失败" description={job.message ?? '未知错误'} />
      )}
      {job.state === 'done' && (
        <>
          {job.bookId !== null && (
            <Typography.Text>
              书籍：
              <Link to={`/books/${job.bookId}`} data-testid="import-book-link">
                《{job.title ?? job.bookId}》（ID {job.bookId}）
              </Link>
            </Typography.Text>
          )}
          {job.message && <Alert type="info" showIcon message={job.message} />}
          <Table
            rowKey="number"
            size="small"
            pagination={false}
            dataSource={job.chapters}
            columns={[
              { title: '话', dataIndex: 'number', width: 70 },
              { title: '标题', dataIndex: 'title' },
              { title: '页数', dataIndex: 'pages', width: 80 },
              { title: '价格（阅币）', dataIndex: 'price', width: 120 },
              {
                title: '结果',
                dataIndex: 'outcome',
                width: 100,
                render: (o: ImportJob['chapters'][number]['outcome']) => (
                  <Tag color={outcomeColor[o]}>{OUTCOME_NAMES[o] ?? o}</Tag>
                ),
              },
            ]}
          />
        </>
      )}
    </Space>
  );
}

const columns: ProColumns<ImportJob>[] = [
  { title: 'ID', dataIndex: 'id', width: 70 },
  { title: '文件', dataIndex: 'fileName', ellipsis: true },
  {
    title: '书籍',
    dataIndex: 'title',
    ellipsis: true,
    render: (_, job) =>
      job.bookId !== null ? (
        <Link to={`/books/${job.bookId}`}>{job.title ?? job.bookId}</Link>
      ) : (
        (job.title ?? '-')
      ),
  },
  {
    title: '状态',
    dataIndex: 'state',
    width: 90,
    render: (_, job) => <Tag color={STATE_TAGS[job.state].color}>{STATE_TAGS[job.state].text}</Tag>,
  },
  { title: '页数', key: 'pages', width: 100, render: (_, job) => `${job.pagesDone}/${job.pagesTotal}` },
  { title: '章节', key: 'chapters', width: 70, render: (_, job) => job.chapters.length },
  { title: '试运行', dataIndex: 'dryRun', width: 80, render: (_, job) => (job.dryRun ? '是' : '否') },
  { title: '操作员', dataIndex: 'operatorName', width: 160, ellipsis: true },
  {
    title: inChinaTime('开始时间'),
    dataIndex: 'createdAt',
    width: 180,
    render: (_, job) => dateTime(job.createdAt),
  },
  { title: '说明', dataIndex: 'message', ellipsis: true, render: (_, job) => job.message ?? '-' },
];

/** Imports a comic from a .cbz/.zip upload, shows its progress and outcome, and the recent imports. */
/** What the importer reads: a comic archive (ComicInfo's .cbz, or a plain .zip). */
const ARCHIVE = /\.(cbz|zip)$/i;

export default function ImportsPage() {
  const { message } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const [job, setJob] = useState<ImportJob>();
  const table = useRef<ActionType>(null);

  // While the job runs, ask for it every 500 ms; when it ends, the recent imports show it.
  useEffect(() => {
    if (!job) return;
    if (job.state !== 'running' && job.state !== 'queued') {
      table.current?.reload();
      return;
    }
    const timer = setTimeout(async () => {
      // A failed poll (a dropped network, a server restarting) asks again at the next tick.
      const next = await call(adminRoutes.importJob, { params: { id: job.id } }, { silent: true }).catch(
        () => undefined,
      );
      setJob(next ? next.import : { ...job });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);

  const submit = async (values: Fields) => {
    const file = values.files?.[0]?.originFileObj;
    if (!file) {
      form.setFields([{ name: 'files', errors: ['请选择 .cbz 或 .zip 文件'] }]);
      return false;
    }
    // Fields left empty are not sent (the server's defaults apply).
    const given = <T,>(value: T | null | undefined) => value ?? undefined;
    const multipart = {
      file,
      title: values.title?.trim() || undefined,
      bookId: given(values.bookId),
      freeChapters: given(values.freeChapters),
      price: given(values.price),
      vipFree: given(values.vipFree),
      replace: given(values.replace),
      dryRun: given(values.dryRun),
    };
    const started = await shown(call(adminRoutes.startImport, { multipart }, { form }));
    if (!started) return false;
    setJob(started.import);
    message.success('已开始导入');
    return true;
  };

  return (
    <PageContainer title="导入">
      <ProCard split="vertical" bordered>
        <ProCard title="上传漫画" colSpan="45%">
          <ProForm<Fields>
            name="import"
            form={form}
            onFinish={submit}
            initialValues={{ vipFree: false, replace: false, dryRun: false }}
            submitter={{ searchConfig: { submitText: '开始导入', resetText: '重置' } }}
            disabled={job?.state === 'running' || job?.state === 'queued'}
          >
            <Form.Item
              name="files"
              label="文件（.cbz / .zip：一话一个文件，或按话分文件夹）"
              valuePropName="fileList"
              getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
              rules={[{ required: true, message: '请选择 .cbz 或 .zip 文件' }]}
            >
              <Upload.Dragger
                accept=".cbz,.zip"
                maxCount={1}
                beforeUpload={() => false}
                // The picker only offers archives, but a dropped file of another kind is filtered out without a
                // word (antd's accept): say why nothing happened.
                onDrop={(e) => {
                  const others = [...e.dataTransfer.files].filter((f) => !ARCHIVE.test(f.name));
                  if (others.length > 0)
                    form.setFields([
                      {
                        name: 'files',
                        errors: [
                          `${others.map((f) => f.name).join('、')} 不是 .cbz 或 .zip 压缩包，请改传压缩包`,
                        ],
                      },
                    ]);
                }}
                data-testid="import-file"
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">点击或拖拽文件到此处</p>
              </Upload.Dragger>
            </Form.Item>
            <ProFormText
              name="title"
              label="书名（可选；不填则取 ComicInfo.xml 的 Series，没有时取文件名）"
              fieldProps={{ maxLength: 100 }}
            />
            <ProFormDigit
              name="bookId"
              label="导入到书籍 ID（可选，留空按文件中的书名新建或匹配）"
              min={1}
              fieldProps={{ precision: 0 }}
            />
            <ProForm.Group>
              <ProFormDigit
                name="freeChapters"
                label="前 N 话免费"
                min={0}
                width="sm"
                fieldProps={{ precision: 0 }}
                placeholder="默认全部免费"
              />
              <ProFormDigit
                name="price"
                label="之后每话价格（阅币）"
                min={1}
                width="sm"
                fieldProps={{ precision: 0 }}
              />
            </ProForm.Group>
            <ProForm.Group>
              <ProFormSwitch name="vipFree" label="VIP免费" />
              <ProFormSwitch name="replace" label="替换已有章节" />
              <ProFormSwitch name="dryRun" label="试运行（只检查不写入）" />
            </ProForm.Group>
          </ProForm>
        </ProCard>
        <ProCard title="本次导入">
          {job ? (
            <JobResult job={job} />
          ) : (
            <Typography.Text type="secondary">上传文件后在此查看进度与结果</Typography.Text>
          )}
        </ProCard>
      </ProCard>
      <ProTable<ImportJob>
        style={{ marginTop: 16 }}
        actionRef={table}
        rowKey="id"
        columns={columns}
        search={false}
        headerTitle="最近的导入"
        request={(params) => tablePage(adminRoutes.imports, params)}
        pagination={{ defaultPageSize: 10 }}
        options={{ density: false, setting: false }}
      />
    </PageContainer>
  );
}
