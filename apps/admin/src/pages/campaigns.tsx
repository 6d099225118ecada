import { ModalForm, PageContainer, ProFormDigit, ProFormText } from '@ant-design/pro-components';
import type { CampaignKind, ConsoleCampaign } from '@yueman/contract/admin';
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  InputNumber,
  Popconfirm,
  Radio,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call } from '../api.ts';
import { BookPicker, type PickedBook } from '../book-picker.tsx';
import { branchLabel } from '../format.ts';

// Limited-time free and discounts on a book (or chapters of it), for every reader or one promotion branch. Times are
// China time (UTC+8, no daylight saving) whatever the operator's own clock: the picker shows China wall-clock times.
const CHINA_MS = 8 * 3_600_000;
const chinaText = (iso: string) =>
  new Date(new Date(iso).getTime() + CHINA_MS).toISOString().slice(0, 16).replace('T', ' ');
/** The picker's value for an instant: a local date whose wall clock reads the China time. */
const pickerOf = (iso: string) => dayjs(chinaText(iso));
/** The instant a China wall-clock time in the picker stands for. */
const instantOf = (d: Dayjs) => new Date(`${d.format('YYYY-MM-DDTHH:mm')}:00+08:00`).toISOString();

const KIND_NAMES: Record<CampaignKind, string> = { limited_free: '限免', discount: '折扣' };
const STATES: Record<ConsoleCampaign['state'], { text: string; color?: string }> = {
  upcoming: { text: '未开始', color: 'blue' },
  live: { text: '进行中', color: 'green' },
  ended: { text: '已结束' },
};
/** 30 (percent off) reads 7折. */
const discountText = (percentOff: number) => `${(100 - percentOff) / 10}折`;

interface CampaignForm {
  kind: CampaignKind;
  title: string;
  window: [Dayjs, Dayjs];
  chapterIdsText?: string;
  branchId?: number | null;
  discountPercent?: number;
}

export default function CampaignsPage() {
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: ConsoleCampaign[] }>();
  const [editing, setEditing] = useState<ConsoleCampaign | 'new'>();
  const [book, setBook] = useState<PickedBook>();
  const [form] = Form.useForm<CampaignForm>();
  const kind = Form.useWatch('kind', form);

  const load = useCallback(
    async () => setData(await call(adminRoutes.campaigns, { query: { page, size: 20 } })),
    [page],
  );
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  const open = (c: ConsoleCampaign | 'new') => {
    setEditing(c);
    setBook(c === 'new' ? undefined : { bookId: c.bookId, title: c.bookTitle });
  };

  const save = async (v: CampaignForm) => {
    if (!book) {
      message.error('请选择作品');
      return false;
    }
    const chapterIds = (v.chapterIdsText ?? '')
      .split(/[\s,，、]+/)
      .filter(Boolean)
      .map(Number);
    if (chapterIds.some((n) => !Number.isInteger(n) || n < 1)) {
      form.setFields([{ name: 'chapterIdsText', errors: ['请填写章节 ID，用逗号分隔'] }]);
      return false;
    }
    const kindNow = editing === 'new' || editing === undefined ? v.kind : editing.kind;
    const body = {
      title: v.title,
      bookId: book.bookId,
      chapterIds: chapterIds.length > 0 ? chapterIds : null,
      branchId: v.branchId ?? null,
      discountPercent: kindNow === 'discount' ? (v.discountPercent ?? null) : null,
      startsAt: instantOf(v.window[0]),
      endsAt: instantOf(v.window[1]),
    };
    if (editing && editing !== 'new') {
      // Refusals show as a message: the server names fields (endsAt, chapterIds) the form spells differently.
      await call(adminRoutes.editCampaign, { params: { id: editing.id }, body });
    } else {
      await call(adminRoutes.addCampaign, { body: { kind: v.kind, ...body } });
    }
    message.success('已保存活动');
    setEditing(undefined);
    await load();
    return true;
  };

  const end = async (c: ConsoleCampaign) => {
    await call(adminRoutes.endCampaign, { params: { id: c.id } });
    message.success(`活动「${c.title}」已结束`);
    await load();
  };

  const columns: TableColumnsType<ConsoleCampaign> = [
    {
      title: '活动',
      key: 'title',
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Typography.Text strong>{c.title}</Typography.Text>
            <Tag color={c.kind === 'limited_free' ? 'magenta' : 'orange'}>
              {c.kind === 'discount' && c.discountPercent !== null
                ? `${KIND_NAMES.discount} ${discountText(c.discountPercent)}`
                : KIND_NAMES[c.kind]}
            </Tag>
          </Space>
          <Typography.Text type="secondary">
            《{c.bookTitle}》 · {c.chapterIds ? `${c.chapterIds.length} 个章节` : '全部章节'}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '读者',
      key: 'branch',
      render: (_, c) => (c.branchId === null ? '全部读者' : `推广渠道：${branchLabel(c.branchId)}`),
    },
    {
      title: '时间（北京时间）',
      key: 'window',
      render: (_, c) => (
        <span>
          {chinaText(c.startsAt)} 至 {chinaText(c.endsAt)}
        </span>
      ),
    },
    {
      title: '状态',
      key: 'state',
      render: (_, c) => <Tag color={STATES[c.state].color}>{STATES[c.state].text}</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      render: (_, c) => (
        <Space size={0}>
          <Button type="link" onClick={() => open(c)} aria-label={`编辑 ${c.title}`}>
            编辑
          </Button>
          {c.state !== 'ended' && (
            <Popconfirm
              title={`立即结束「${c.title}」？`}
              description="结束后读者按原规则阅读和付费。"
              okText="结束"
              cancelText="取消"
              onConfirm={() => end(c)}
            >
              <Button type="link" danger aria-label={`结束 ${c.title}`}>
                立即结束
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const current = editing && editing !== 'new' ? editing : undefined;
  const now = dayjs(chinaText(new Date().toISOString()));
  return (
    <PageContainer
      title="限免与折扣"
      content="限免：活动时间内读者免费阅读所选章节；折扣：按折扣价购买（向下取整，至少 1 阅币）。可只对一个推广渠道的读者生效。所有时间为北京时间。"
      extra={
        <Button type="primary" onClick={() => open('new')}>
          新建活动
        </Button>
      }
    >
      <Card>
        <Table<ConsoleCampaign>
          rowKey="id"
          size="middle"
          loading={!data}
          columns={columns}
          dataSource={data?.list ?? []}
          pagination={{ current: page, pageSize: 20, total: data?.total ?? 0, onChange: setPage }}
        />
      </Card>

      <ModalForm<CampaignForm>
        name="campaign"
        title={current ? `编辑活动：${current.title}` : '新建活动'}
        open={editing !== undefined}
        form={form}
        width={640}
        // The window's values stay dayjs (instantOf reads them as China wall-clock times): ProForm's default
        // turns dates into strings before onFinish, and the save then threw before sending anything.
        dateFormatter={false}
        initialValues={
          current
            ? {
                kind: current.kind,
                title: current.title,
                window: [pickerOf(current.startsAt), pickerOf(current.endsAt)],
                chapterIdsText: current.chapterIds?.join(', ') ?? '',
                branchId: current.branchId,
                discountPercent: current.discountPercent ?? undefined,
              }
            : { kind: 'limited_free', window: [now.startOf('minute'), now.add(1, 'day').startOf('minute')] }
        }
        modalProps={{ destroyOnHidden: true, okText: '保存', onCancel: () => setEditing(undefined) }}
        onOpenChange={(o) => !o && setEditing(undefined)}
        onFinish={save}
      >
        <Form.Item name="kind" label="类型">
          <Radio.Group disabled={current !== undefined}>
            <Radio.Button value="limited_free">限免</Radio.Button>
            <Radio.Button value="discount">折扣</Radio.Button>
          </Radio.Group>
        </Form.Item>
        <ProFormText name="title" label="活动名称" rules={[{ required: true, max: 40 }]} />
        <Form.Item label="作品" required>
          <Space direction="vertical">
            {book && (
              <Typography.Text strong data-testid="picked-book">
                《{book.title}》（ID {book.bookId}）
              </Typography.Text>
            )}
            <BookPicker onPick={setBook} exclude={book ? [book.bookId] : []} />
          </Space>
        </Form.Item>
        <ProFormText name="chapterIdsText" label="章节 ID（留空为全部章节）" placeholder="如 101, 102, 103" />
        <Form.Item
          name="window"
          label="活动时间（北京时间）"
          rules={[{ required: true, message: '请选择开始和结束时间' }]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowClear={false}
          />
        </Form.Item>
        <Form.Item name="branchId" label="推广渠道 ID（留空为全部读者）">
          <InputNumber precision={0} style={{ width: 200 }} placeholder="全部读者" />
        </Form.Item>
        {(current?.kind ?? kind) === 'discount' && (
          <ProFormDigit
            name="discountPercent"
            label="优惠比例（%，30 即 7 折）"
            min={1}
            max={90}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写优惠比例' }]}
          />
        )}
      </ModalForm>
    </PageContainer>
  );
}
