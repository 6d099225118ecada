import { ProCard } from '@ant-design/pro-components';
import type { UnlockRules } from '@yueman/contract/admin';
import {
  Alert,
  App,
  Button,
  Form,
  InputNumber,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from './api.ts';
import { branchLabel, dateTime as chinaTime } from './format.ts';

/** The card's fields: the wait in the unit chosen (hours or minutes), the rest as the rules hold them. */
interface RuleFields {
  waitOn: boolean;
  /** The wait in `waitUnit`s (named as the server names the wait, so its refusals show under this field). */
  waitMinutes: number;
  waitUnit: 'hour' | 'minute';
  rentalHours: number;
  newReaderExtra: number;
  earlyAccessChapters: number;
  bundlePercent: number;
}

const fieldsOf = (r: UnlockRules): RuleFields => {
  const minutes = r.waitFree?.waitMinutes ?? 24 * 60;
  const inHours = minutes % 60 === 0;
  return {
    waitOn: r.waitFree !== null,
    waitMinutes: inHours ? minutes / 60 : minutes,
    waitUnit: inHours ? 'hour' : 'minute',
    rentalHours: r.waitFree?.rentalHours ?? 72,
    newReaderExtra: r.waitFree?.newReaderExtra ?? 0,
    earlyAccessChapters: r.earlyAccessChapters,
    bundlePercent: r.bundlePercent,
  };
};

const waitText = (amount: number, unit: 'hour' | 'minute') =>
  `${amount} ${unit === 'hour' ? '小时' : '分钟'}`;

/** What the rules mean for a reader, in one or two lines of Chinese. */
export function rulesMeaning(f: Partial<RuleFields>) {
  const parts: string[] = [];
  const early = f.earlyAccessChapters ?? 0;
  if (f.waitOn && f.waitMinutes) {
    const except = early > 0 ? `（最新 ${early} 话除外）` : '';
    parts.push(
      `等就免费：读者每等 ${waitText(f.waitMinutes, f.waitUnit ?? 'hour')}可免费解锁一话付费章节${except}，解锁后 ${f.rentalHours ?? 72} 小时内可读，到期需再次解锁。`,
    );
    if (f.newReaderExtra) parts.push(`新读者注册首日额外可等免 ${f.newReaderExtra} 话。`);
  } else {
    parts.push('未开启等就免费：付费章节需用阅币、阅读券或 VIP 解锁。');
  }
  if (early > 0) parts.push(`抢先看：最新 ${early} 话只能用阅币或抢先券解锁。`);
  if (f.bundlePercent) parts.push(`打包购买：一次买下全部剩余付费章节，优惠 ${f.bundlePercent}%。`);
  return parts.join('');
}

const DEFAULT_RULES = 'default';
/** Who a set of rules is for, as the selector names it. */
const forWhom = (branchId: number | null) =>
  branchId === null ? '全部读者（默认规则）' : `推广渠道：${branchLabel(branchId)}`;

/**
 * The selector of whose rules the card shows: the default, each branch with a variant, and a branch to add (by its
 * number); then the variant's delete.
 */
function BranchPicker({
  rules,
  canWrite,
  onPick,
  onDelete,
}: {
  rules: UnlockRules;
  canWrite: boolean;
  onPick(branchId: number | null): void;
  onDelete(): void;
}) {
  const [adding, setAdding] = useState<number | null>(null);
  const shownBranches = [...rules.branches];
  if (rules.branchId !== null && !shownBranches.includes(rules.branchId)) shownBranches.push(rules.branchId);
  const isVariant = rules.branchId !== null && rules.branches.includes(rules.branchId);
  return (
    <Space wrap style={{ marginBottom: 16 }} data-testid="rules-branch">
      <span>适用读者</span>
      <Select
        aria-label="适用读者"
        style={{ width: 260 }}
        value={rules.branchId === null ? DEFAULT_RULES : String(rules.branchId)}
        onChange={(v: string) => onPick(v === DEFAULT_RULES ? null : Number(v))}
        options={[
          { value: DEFAULT_RULES, label: forWhom(null) },
          ...shownBranches.map((b) => ({ value: String(b), label: forWhom(b) })),
        ]}
      />
      {canWrite && (
        <>
          <InputNumber<number>
            aria-label="渠道 ID"
            placeholder="渠道 ID"
            precision={0}
            style={{ width: 120 }}
            value={adding}
            onChange={(v) => setAdding(v)}
          />
          <Button
            disabled={adding === null}
            onClick={() => {
              if (adding === null) return;
              onPick(adding);
              setAdding(null);
            }}
          >
            为该渠道设专属规则
          </Button>
          {isVariant && (
            <Popconfirm
              title="删除该渠道的专属规则？"
              description="删除后该渠道读者按默认规则解锁。"
              okText="删除"
              cancelText="取消"
              onConfirm={onDelete}
            >
              <Button danger>删除该渠道规则</Button>
            </Popconfirm>
          )}
        </>
      )}
    </Space>
  );
}

/**
 * 解锁规则 on the book edit page: wait-for-free (the wait in hours or minutes, the rental, new readers' first-day
 * extra), early access (the newest N chapters) and the bundle discount, with what they mean for a reader; the
 * default for every reader, or a promotion branch's own variant (its readers follow it instead). Owners and editors
 * save them (the whole set at once) and delete a variant; others read them.
 */
export function UnlockRulesCard({ bookId, canWrite }: { bookId: number; canWrite: boolean }) {
  const [rules, setRules] = useState<UnlockRules>();
  const [branchId, setBranchId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<RuleFields>();
  const { message } = App.useApp();
  const watched = Form.useWatch([], form) as Partial<RuleFields> | undefined;

  const load = useCallback(async () => {
    const found = await shown(
      call(adminRoutes.bookUnlockRules, {
        params: { id: bookId },
        query: branchId === null ? {} : { branchId },
      }),
    );
    if (!found) return;
    setRules(found);
    form.setFieldsValue(fieldsOf(found));
  }, [bookId, branchId, form]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async () => {
    if (branchId === null) return;
    const left = await shown(
      call(adminRoutes.deleteBookUnlockRules, { params: { id: bookId }, body: { branchId } }),
    );
    if (!left) return;
    message.success('渠道专属规则已删除');
    setBranchId(null);
    setRules(left);
    form.setFieldsValue(fieldsOf(left));
  };

  const save = async (f: RuleFields) => {
    setSaving(true);
    const saved = await shown(
      call(
        adminRoutes.setBookUnlockRules,
        {
          params: { id: bookId },
          body: {
            waitFree: f.waitOn
              ? {
                  waitMinutes: f.waitMinutes * (f.waitUnit === 'hour' ? 60 : 1),
                  rentalHours: f.rentalHours,
                  newReaderExtra: f.newReaderExtra,
                }
              : null,
            earlyAccessChapters: f.earlyAccessChapters,
            bundlePercent: f.bundlePercent,
            branchId,
          },
        },
        { form },
      ),
    );
    setSaving(false);
    if (!saved) return;
    setRules(saved);
    form.setFieldsValue(fieldsOf(saved));
    message.success('解锁规则已保存');
  };

  const waitOn = watched?.waitOn ?? false;
  const whole = (max: number, min = 0) => ({ min, max, precision: 0, style: { width: 96 } });
  return (
    <ProCard
      title="解锁规则"
      bordered
      style={{ marginTop: 16 }}
      extra={
        rules?.updatedAt ? (
          <Typography.Text type="secondary">
            最近保存：{chinaTime(rules.updatedAt)}（北京时间）
          </Typography.Text>
        ) : rules?.branchId != null ? (
          <Typography.Text type="secondary">该渠道尚无专属规则（沿用默认规则）</Typography.Text>
        ) : (
          <Typography.Text type="secondary">尚未设置（仅阅币解锁）</Typography.Text>
        )
      }
      data-testid="unlock-rules"
    >
      {rules && (
        <BranchPicker rules={rules} canWrite={canWrite} onPick={setBranchId} onDelete={() => void remove()} />
      )}
      {!rules ? (
        <Skeleton active />
      ) : (
        <Form<RuleFields>
          form={form}
          name="unlock-rules"
          layout="horizontal"
          labelCol={{ flex: '140px' }}
          disabled={!canWrite}
          onFinish={save}
        >
          <Form.Item name="waitOn" label="等就免费" valuePropName="checked">
            <Switch checkedChildren="开" unCheckedChildren="关" />
          </Form.Item>
          <Form.Item label="等待时间" hidden={!waitOn}>
            <Space>
              <Form.Item name="waitMinutes" noStyle rules={[{ required: waitOn, message: '请填写等待时间' }]}>
                <InputNumber {...whole(watched?.waitUnit === 'minute' ? 43_200 : 720, 1)} />
              </Form.Item>
              <Form.Item name="waitUnit" noStyle>
                <Select
                  style={{ width: 88 }}
                  options={[
                    { value: 'hour', label: '小时' },
                    { value: 'minute', label: '分钟' },
                  ]}
                />
              </Form.Item>
              <Typography.Text type="secondary">
                两次免费解锁之间的等待，最短 1 分钟（活动用）
              </Typography.Text>
            </Space>
          </Form.Item>
          <Form.Item label="租借时长" hidden={!waitOn}>
            <Space>
              <Form.Item name="rentalHours" noStyle rules={[{ required: waitOn, message: '请填写租借时长' }]}>
                <InputNumber {...whole(720, 1)} />
              </Form.Item>
              <span>小时</span>
              <Typography.Text type="secondary">等免解锁的章节可读多久（1–720 小时）</Typography.Text>
            </Space>
          </Form.Item>
          <Form.Item label="新读者首日额外" hidden={!waitOn}>
            <Space>
              <Form.Item name="newReaderExtra" noStyle rules={[{ required: waitOn, message: '请填写话数' }]}>
                <InputNumber {...whole(20)} />
              </Form.Item>
              <span>话</span>
              <Typography.Text type="secondary">注册当天额外可等免的话数（0 为不额外赠送）</Typography.Text>
            </Space>
          </Form.Item>
          <Form.Item label="抢先看">
            <Space>
              <span>最新</span>
              <Form.Item
                name="earlyAccessChapters"
                noStyle
                rules={[{ required: true, message: '请填写话数' }]}
              >
                <InputNumber {...whole(100)} />
              </Form.Item>
              <span>话</span>
              <Typography.Text type="secondary">
                只能用阅币或抢先券解锁（0 为不开启；本书共 {rules.chapterCount} 话）
              </Typography.Text>
            </Space>
          </Form.Item>
          <Form.Item label="打包购买折扣">
            <Space>
              <Form.Item name="bundlePercent" noStyle rules={[{ required: true, message: '请填写折扣' }]}>
                <InputNumber {...whole(90)} />
              </Form.Item>
              <span>%</span>
              <Typography.Text type="secondary">
                一次买下剩余全部付费章节的优惠（0 为不开启，最多 90%）
              </Typography.Text>
            </Space>
          </Form.Item>
          <Alert
            type="info"
            showIcon
            message={
              <>
                <Typography.Text strong>{forWhom(rules.branchId)}</Typography.Text>{' '}
                {rulesMeaning(watched ?? fieldsOf(rules))}
              </>
            }
            description={
              rules.branchId !== null && !rules.updatedAt
                ? '该渠道尚无专属规则，以上为默认规则；应用后即成为该渠道读者的专属规则，其他读者不受影响。'
                : undefined
            }
            data-testid="rules-meaning"
          />
          {canWrite && (
            <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving}>
                  应用解锁规则
                </Button>
                <Button onClick={() => form.setFieldsValue(fieldsOf(rules))}>还原</Button>
              </Space>
            </Form.Item>
          )}
        </Form>
      )}
    </ProCard>
  );
}
