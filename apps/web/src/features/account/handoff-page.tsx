import { Button, Dialog, Result, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { startApp } from '../../app/start.ts';
import { redeemHandoff } from '../../lib/api/handoff.ts';
import { homePath, loginPath, openInBrowserPath } from '../../lib/paths.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { sitePath } from '../../lib/safe-links.ts';
import { isChatAppBrowser, isWechatBrowser } from '../../lib/user-agent.ts';
import { useUserStore } from '../../lib/user-store.ts';
import './account.css';

/**
 * /handoff?token=&to=: a link from the chat-app prompt, opened in another browser. Without an account on this device
 * it takes the link's account at once; with another one, it asks first (the reader might lose that account's
 * password otherwise). Then the app starts as usual and `to` opens. A used, expired or unknown link says so and
 * offers login, and the app does not start (which would make a new visitor account) until the reader chooses.
 */
export default function HandoffPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const [expired, setExpired] = useState<{ msg: string; current: string | null } | null>(null);
  const token = params.get('token') ?? '';
  const to = sitePath(params.get('to')) ?? homePath();

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Still inside the chat app (its back button, a reload): the prompt again, never spending the link here.
    // (With WeChat notices on, a notice's link hands the account over inside WeChat itself.)
    if (isChatAppBrowser() && !(isWechatBrowser() && runtimeConfig.wechatNotices))
      return void navigate(openInBrowserPath(to), { replace: true });
    const finish = (path: string) => {
      void startApp();
      navigate(path, { replace: true });
    };
    const take = async () => {
      const res = await redeemHandoff(token).catch(() => null);
      if (!res?.result) {
        const current = useUserStore.getState().userInfo?.account ?? null;
        return setExpired({ msg: res?.msg || '链接已失效，请回到微信重新获取', current });
      }
      useUserStore.getState().switchUser(res.data);
      Toast.show({ content: `已继续使用账号 ${res.data.account}`, duration: 2000 });
      finish(to);
    };
    const current = useUserStore.getState().userInfo;
    if (!current) return void take();
    void Dialog.confirm({
      title: '继续使用微信中的账号？',
      content: `本浏览器当前的账号 ${current.account} 将退出，请先记下它的账号和密码。`,
      confirmText: '切换账号',
      cancelText: '保持当前账号',
    }).then((yes) => (yes ? take() : finish(to)));
  }, [navigate, token, to]);

  if (!expired) return <main className="page handoff-page" aria-busy="true" />;

  // The app starts once the reader chose: after a login (with the account logged in), or to go on browsing.
  const toLogin = () => {
    const stop = useUserStore.subscribe((s) => {
      if (!s.userInfo) return;
      stop();
      void startApp();
    });
    navigate(loginPath(), { replace: true });
  };
  const browse = () => {
    void startApp();
    navigate(expired.current ? to : homePath(), { replace: true });
  };
  return (
    <main className="page handoff-page">
      <Result
        status="warning"
        title="链接已失效"
        description={
          <>
            <span className="handoff-reason">{expired.msg}</span>
            <span>此链接只能使用一次，10分钟内有效。已有账号可直接登录，阅币和VIP跟随账号。</span>
          </>
        }
      />
      <div className="handoff-actions">
        <Button block color="primary" shape="rounded" size="large" onClick={toLogin}>
          登录已有账号
        </Button>
        <Button block fill="none" size="large" onClick={browse}>
          {expired.current ? `继续使用当前账号 ${expired.current}` : '先随便看看'}
        </Button>
      </div>
    </main>
  );
}
