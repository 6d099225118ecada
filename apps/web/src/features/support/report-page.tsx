import { Button, Form, Input, Radio, TextArea, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { TopBar } from '../../components/top-bar.tsx';
import { positiveId } from '../../lib/paths.ts';
import { serviceAddresses } from '../../lib/service-addresses.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { type ReportedPage, useSubmitReport } from './api/submit-report.ts';
import { safeReturnPath } from './safe-return.ts';
import './support.css';

export const REPORT_REASONS = ['色情低俗', '政治敏感', '侵权盗版', '虚假广告', '违法违规', '其他'];

interface Values {
  reason?: string;
  content?: string;
  contact?: string;
}

/** The page of a chapter the reader's 举报此页 names (bookId, number, page), when all three are whole numbers. */
function reportedPageOf(params: URLSearchParams): ReportedPage | null {
  const bookId = positiveId(params.get('bookId'));
  const chapterNumber = positiveId(params.get('number'));
  const pageNumber = positiveId(params.get('page'));
  return bookId && chapterNumber && pageNumber ? { bookId, chapterNumber, pageNumber } : null;
}

/** /h5/report?vueReturnUrl=&serviceUrl=: the complaint form every page links to (spec sections 1 and 2). */
export default function ReportPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = safeReturnPath(params.get('vueReturnUrl'));
  const commonInfo = useUserStore((s) => s.commonInfo);
  // Only an address common info names is linked; a crafted serviceUrl falls back to the first of those.
  const known = serviceAddresses(commonInfo);
  const asked = params.get('serviceUrl') ?? '';
  const serviceUrl = known.includes(asked) ? asked : (known[0] ?? null);
  const reported = reportedPageOf(params);
  const submit = useSubmitReport();
  const [form] = Form.useForm<Values>();

  const onFinish = (values: Values) => {
    submit.mutate(
      {
        reason: values.reason ?? '',
        content: values.content?.trim() ?? '',
        contact: values.contact?.trim() ?? '',
        pageUrl: params.get('vueReturnUrl') ?? '',
        page: reported ?? undefined,
      },
      {
        onSuccess: () => {
          Toast.show({ icon: 'success', content: '提交成功，感谢您的反馈', duration: 1500 });
          setTimeout(() => navigate(returnTo, { replace: true }), 1500);
        },
        onError: (err) =>
          showAlert(err instanceof Error && err.message ? err.message : '提交失败，请稍后重试'),
      },
    );
  };

  return (
    <main className="page report-page">
      <TopBar title="投诉举报" />
      <p className="page-intro">如发现违法违规、侵权或不良内容，请告诉我们，我们会在核实后尽快处理。</p>
      {reported && (
        <p className="report-page-named" data-testid="reported-page">
          举报页面：{params.get('title') ? `《${params.get('title')}》` : ''}第{reported.chapterNumber}话 第
          {reported.pageNumber}页
        </p>
      )}
      <Form
        form={form}
        layout="vertical"
        className="report-form"
        onFinish={onFinish}
        requiredMarkStyle="asterisk"
        footer={
          <Button block type="submit" color="primary" shape="rounded" size="large" loading={submit.isPending}>
            提交
          </Button>
        }
      >
        <Form.Item name="reason" label="投诉原因" rules={[{ required: true, message: '请选择投诉原因' }]}>
          <Radio.Group>
            <div className="report-reasons">
              {REPORT_REASONS.map((r) => (
                <Radio key={r} value={r} className="report-reason">
                  {r}
                </Radio>
              ))}
            </div>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="content" label="问题描述">
          <TextArea placeholder="请描述您遇到的问题（选填）" maxLength={500} rows={4} showCount />
        </Form.Item>
        <Form.Item name="contact" label="联系方式">
          <Input placeholder="手机号、QQ或邮箱（选填）" maxLength={100} clearable />
        </Form.Item>
      </Form>
      <div className="report-service">
        {serviceUrl ? (
          <a href={serviceUrl} className="report-service-link">
            联系在线客服
          </a>
        ) : (
          <span>客服在线时间：11:00-21:00</span>
        )}
      </div>
    </main>
  );
}
