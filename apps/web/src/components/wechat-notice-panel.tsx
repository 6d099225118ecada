import { useQuery } from '@tanstack/react-query';
import type { NoticeKind, WechatConfig } from '@yueman/contract';
import { useEffect, useRef, useState } from 'react';
import { call, data, routes } from '../lib/api-client.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { useUserStore } from '../lib/user-store.ts';
import './wechat-notice.css';

// 更新提醒 inside WeChat: WeChat's `wx-open-subscribe` tag for the official account's notice template, configured by
// wx.config signed on the server for this page. Outside WeChat, without WeChat notices on the server (its status
// call answers 404), or without a session, nothing shows. The remaining count is the server's (WeChat's pushes).

const JSSDK = 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js';

interface Wx {
  config(c: WechatConfig & { debug: boolean; jsApiList: string[] }): void;
  ready(f: () => void): void;
  error(f: (e: unknown) => void): void;
}
declare global {
  interface Window {
    wx?: Wx;
  }
}

let sdk: Promise<Wx> | undefined;
/** WeChat's JS-SDK, loaded once, only when a subscribe button is about to show. */
function loadSdk(): Promise<Wx> {
  sdk ??= new Promise<Wx>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = JSSDK;
    script.onload = () => (window.wx ? resolve(window.wx) : reject(new Error('no wx')));
    script.onerror = () => reject(new Error('JS-SDK not loaded'));
    document.head.append(script);
  });
  return sdk;
}

/** The page's address as WeChat signs it: without its #fragment. */
const pageUrl = () => location.href.split('#')[0] ?? location.href;

/** The notice inside WeChat (wechat-notice.tsx loads this only there). */
export default function WechatNoticePanel({ kind }: { kind: NoticeKind }) {
  const userId = useUserStore((s) => s.userInfo?.userId ?? 0);
  const status = useQuery({
    queryKey: ['notices', 'wechat', userId],
    queryFn: () => call(routes.noticeStatus),
    enabled: userId > 0,
    staleTime: 30_000,
    retry: false,
  });
  const envelope = status.data;
  const template = envelope?.result ? envelope.data.templates.find((t) => t.kind === kind) : undefined;
  if (!envelope?.result || !template) return null;
  const { bound, bindUrl } = envelope.data;
  const left = template.remaining > 0 ? `剩余${template.remaining}次` : '未开启';
  if (!bound) {
    const back = `${location.pathname}${location.search}`;
    return (
      <div className="wx-notice">
        <a
          className="wx-notice-button"
          href={`${runtimeConfig.dynamicApiBase}${bindUrl}?to=${encodeURIComponent(back)}`}
        >
          更新提醒
        </a>
        <span className="wx-notice-left">微信通知你更新</span>
      </div>
    );
  }
  return (
    <div className="wx-notice">
      <SubscribeTag
        templateId={template.templateId}
        onDone={() => setTimeout(() => status.refetch(), 2000)}
      />
      <span className="wx-notice-left" data-testid="wx-notice-left">
        {left}
      </span>
    </div>
  );
}

/** The open tag, after wx.config: WeChat draws its own button over ours and opens its subscribe popup. */
function SubscribeTag({ templateId, onDone }: { templateId: string; onDone(): void }) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    (async () => {
      const [wx, signed] = await Promise.all([
        loadSdk(),
        data(routes.noticeConfig, { form: { url: pageUrl() } }),
      ]);
      wx.config({ ...signed, debug: false, jsApiList: ['checkJsApi'] });
      wx.ready(() => live && setReady(true));
    })().catch((err: unknown) => console.error('WeChat JS-SDK', err));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    const tag = host.current?.querySelector('wx-open-subscribe');
    if (!tag) return;
    const success = (e: Event) => {
      const details = (e as CustomEvent<{ subscribeDetails?: string }>).detail?.subscribeDetails ?? '{}';
      let accepted: string[] = [];
      try {
        const parsed = JSON.parse(details) as Record<string, string>;
        accepted = Object.entries(parsed)
          .filter(([, v]) => (JSON.parse(v) as { status?: string }).status === 'accept')
          .map(([id]) => id);
      } catch {
        accepted = [];
      }
      void call(routes.noticeSubscribed, { form: { accepted: accepted.join(',') } }).finally(onDone);
    };
    tag.addEventListener('success', success);
    return () => tag.removeEventListener('success', success);
  }, [onDone]);
  // WeChat reads the tag's template from a <script type="text/wxtag-template"> child: React cannot write one, so the
  // tag is written as HTML (the template id is the server's, letters, digits, _ and -).
  const safeId = templateId.replace(/[^A-Za-z0-9_-]/g, '');
  return (
    <div
      ref={host}
      className="wx-notice-tag"
      data-ready={ready}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: WeChat's open tag needs its template script child
      dangerouslySetInnerHTML={{
        __html: `<wx-open-subscribe template="${safeId}"><script type="text/wxtag-template"><style>.b{border:0;border-radius:16px;padding:6px 14px;font-size:14px;color:#fff;background:#ff5c6c}</style><button class="b">更新提醒</button></script></wx-open-subscribe><span class="wx-notice-button" aria-hidden="true">更新提醒</span>`,
      }}
    />
  );
}
