import type { BookWithChapters, Chapter } from '@yueman/contract/admin';
import { Alert, App, Button, Form, InputNumber, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { adminRoutes, call, shown } from '../api.ts';

interface Rule {
  freeChapters: number;
  price: number;
}

/**
 * The book's pricing as the batch rule would say it: the chapters from the first that are free, and one price for the
 * rest (`exact` false when the rest differ: the rule then shows the commonest price).
 */
export function currentRule(chapters: Pick<Chapter, 'number' | 'price'>[]): Rule & { exact: boolean } {
  const ordered = [...chapters].sort((a, b) => a.number - b.number);
  const firstPriced = ordered.findIndex((c) => c.price > 0);
  if (firstPriced === -1) return { freeChapters: ordered.at(-1)?.number ?? 0, price: 0, exact: true };
  const freeChapters = firstPriced === 0 ? 0 : (ordered[firstPriced - 1] as Chapter).number;
  const rest = ordered.slice(firstPriced);
  const counts = new Map<number, number>();
  for (const c of rest) counts.set(c.price, (counts.get(c.price) ?? 0) + 1);
  const price = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
  // Exact when the rule gives every chapter its price (numbers may skip: a chapter numbered past N is priced).
  const exact = ordered.every((c) => c.price === (c.number <= freeChapters ? 0 : price));
  return { freeChapters, price, exact };
}

const ruleText = (rule: Rule) =>
  rule.price === 0
    ? '全部免费'
    : rule.freeChapters === 0
      ? `每话 ${rule.price} 阅币`
      : `前 ${rule.freeChapters} 话免费，之后每话 ${rule.price} 阅币`;

/** Chapter numbers as runs, e.g. 2–23、25. */
export function numberRanges(numbers: number[]) {
  const runs: [number, number][] = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join('、');
}

/** What applying a rule changes: the chapters whose price moves, and which of those readers own. */
export function pricingChanges(chapters: Chapter[], rule: Rule) {
  const changed = chapters.filter((c) => c.price !== (c.number <= rule.freeChapters ? 0 : rule.price));
  const owned = changed.filter((c) => c.buyers > 0);
  return { changed, owned, buyers: owned.reduce((n, c) => n + c.buyers, 0) };
}

/**
 * 批量定价: shows the book's rule as its chapters say it, and asks before applying a new one, saying how many
 * chapters change and how many of those readers have bought (they keep them; the new price is for later buyers).
 */
export function BatchPricing({
  book,
  onSaved,
}: {
  book: BookWithChapters;
  onSaved(book: BookWithChapters): void;
}) {
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Rule>();
  const rule = currentRule(book.chapters);
  useEffect(() => {
    form.setFieldsValue({ freeChapters: rule.freeChapters, price: rule.price });
  }, [form, rule.freeChapters, rule.price]);

  const apply = (values: Rule) => {
    const { changed, owned, buyers } = pricingChanges(book.chapters, values);
    if (changed.length === 0) {
      message.info('价格没有变化');
      return;
    }
    modal.confirm({
      title: `按“${ruleText(values)}”修改 ${changed.length} 话的价格？`,
      content: (
        <Space direction="vertical" data-testid="pricing-confirm">
          <span>第 {numberRanges(changed.map((c) => c.number))} 话的价格将改变，读者立即看到新价格。</span>
          {owned.length > 0 ? (
            <Typography.Text type="warning">
              其中 {owned.length} 话已有读者购买（共 {buyers}{' '}
              人次）：已购读者继续可读，新价格只对之后购买的读者生效。
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">这些章节还没有读者购买。</Typography.Text>
          )}
        </Space>
      ),
      okText: '确认修改',
      cancelText: '取消',
      onOk: async () => {
        const saved = await shown(call(adminRoutes.priceBook, { params: { id: book.id }, body: values }));
        if (saved) {
          onSaved(saved);
          message.success('已保存');
        }
      },
    });
  };

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Alert
        type={rule.exact ? 'info' : 'warning'}
        showIcon
        data-testid="pricing-current"
        message={
          book.chapters.length === 0
            ? '还没有章节'
            : rule.exact
              ? `当前：${ruleText(rule)}`
              : `当前各话价格不一（多数为 ${ruleText(rule)}），见下方章节表`
        }
      />
      <Form<Rule> form={form} layout="inline" onFinish={apply} data-testid="pricing-form">
        <Space wrap size={4} align="center">
          <span>前</span>
          <Form.Item name="freeChapters" noStyle rules={[{ required: true }]}>
            <InputNumber min={0} max={100000} precision={0} style={{ width: 72 }} />
          </Form.Item>
          <span>话免费，之后每话</span>
          <Form.Item name="price" noStyle rules={[{ required: true }]}>
            <InputNumber min={0} max={100000} precision={0} style={{ width: 80 }} />
          </Form.Item>
          <span>阅币</span>
          <Button htmlType="submit" type="primary" ghost disabled={book.chapters.length === 0}>
            应用
          </Button>
        </Space>
      </Form>
    </Space>
  );
}
