import { Dialog, Toast } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { startApp } from '../../app/start.ts';
import { showAlert } from '../../components/alert.ts';
import { redeemHandoff } from '../../lib/api/handoff.ts';
import { homePath, openInBrowserPath } from '../../lib/paths.ts';
import { sitePath } from '../../lib/safe-links.ts';
import { isChatAppBrowser } from '../../lib/user-agent.ts';
import { useUserStore } from '../../lib/user-store.ts';

/**
 * /handoff?token=&to=: a link from the chat-app prompt, opened in another browser. Without an account on this device
 * it takes the link's account at once; with another one, it asks first (the reader might lose that account's
 * password otherwise). Then the app starts as usual and `to` opens.
 */
export default function HandoffPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const token = params.get('token') ?? '';
  const to = sitePath(params.get('to')) ?? homePath();

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Still inside the chat app (its back button, a reload): the prompt again, never spending the link here.
    if (isChatAppBrowser()) return void navigate(openInBrowserPath(to), { replace: true });
    const finish = (path: string) => {
      void startApp();
      navigate(path, { replace: true });
    };
    const take = async () => {
      const res = await redeemHandoff(token).catch(() => null);
      if (!res?.result) {
        showAlert(res?.msg || '链接已失效，请回到微信重新获取');
        return finish(homePath());
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

  return <main className="page handoff-page" aria-busy="true" />;
}
