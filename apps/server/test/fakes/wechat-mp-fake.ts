// The official account's server API as WeChat plays it, for WeChat notices (the WeChat Pay fake serves it at the same
// address as the official account's OAuth, as api.weixin.qq.com does): the access token from the AppSecret, the
// JS-SDK ticket, subscription notices (bizsend) checked as WeChat checks them, and the event pushes WeChat would send
// our server when a reader answers the subscribe popup or refuses notices later, signed with the push Token.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

type Json = Record<string, unknown>;

export interface FakeNotice {
  openid: string;
  templateId: string;
  page: string;
  data: Record<string, { value: string }>;
}

export function createOfficialAccountFake(opts: {
  appid: string;
  appSecret: string;
  /** Every openid this official account knows (the readers who opened our pages in WeChat). */
  openids: Set<string>;
  now: () => Date;
}) {
  let pushToken = 'yuemanpush';
  let siteOrigin = 'http://localhost:8080';
  /** The URL of the official account's server configuration (服务器配置), where WeChat pushes events. */
  let pushUrl: string | undefined;
  /** Registered templates and their keywords. */
  const templates = new Map<string, string[]>();
  /** Consents left per openid and template: each accept one more, each notice sent one less. */
  const consents = new Map<string, number>();
  const tokens = new Map<string, number>();
  const tickets = new Map<string, number>();
  const sent: FakeNotice[] = [];
  const calls = { token: 0, ticket: 0, bizsend: 0 };
  /** errcodes the next bizsend calls answer, then back to normal; 'hang' drops the connection unanswered. */
  const script: (number | 'hang')[] = [];
  let createTime = 1_700_000_000;

  const reply = (res: ServerResponse, json: Json) =>
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(json));
  const consentKey = (openid: string, templateId: string) => `${openid} ${templateId}`;
  const tokenOk = (t: string | null) => t !== null && (tokens.get(t) ?? 0) > opts.now().getTime();

  function answer(method: string, url: URL, body: string): Json | 'hang' | undefined {
    const p = url.searchParams;
    if (method === 'GET' && url.pathname === '/cgi-bin/token') {
      calls.token++;
      if (p.get('grant_type') !== 'client_credential')
        return { errcode: 40002, errmsg: 'invalid grant_type' };
      if (p.get('appid') !== opts.appid) return { errcode: 40013, errmsg: 'invalid appid' };
      if (p.get('secret') !== opts.appSecret) return { errcode: 40125, errmsg: 'invalid appsecret' };
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, opts.now().getTime() + 7200_000);
      return { access_token: token, expires_in: 7200 };
    }
    if (method === 'GET' && url.pathname === '/cgi-bin/ticket/getticket') {
      calls.ticket++;
      if (!tokenOk(p.get('access_token'))) return { errcode: 40001, errmsg: 'invalid credential' };
      if (p.get('type') !== 'jsapi') return { errcode: 40097, errmsg: 'invalid args' };
      const ticket = randomBytes(32).toString('base64url');
      tickets.set(ticket, opts.now().getTime() + 7200_000);
      return { errcode: 0, errmsg: 'ok', ticket, expires_in: 7200 };
    }
    if (method === 'POST' && url.pathname === '/cgi-bin/message/subscribe/bizsend') {
      calls.bizsend++;
      if (!tokenOk(p.get('access_token'))) return { errcode: 40001, errmsg: 'invalid credential' };
      const next = script.shift();
      if (next === 'hang') return 'hang';
      if (next !== undefined) return { errcode: next, errmsg: 'scripted refusal' };
      let m: Json;
      try {
        m = JSON.parse(body) as Json;
      } catch {
        return { errcode: 47001, errmsg: 'data format error' };
      }
      const openid = String(m.touser ?? '');
      const templateId = String(m.template_id ?? '');
      const page = String(m.page ?? '');
      const data = (m.data ?? {}) as Record<string, { value?: unknown }>;
      const keywords = templates.get(templateId);
      if (!keywords) return { errcode: 40037, errmsg: 'invalid template_id' };
      if (!opts.openids.has(openid)) return { errcode: 40003, errmsg: 'invalid openid' };
      if (!page.startsWith(`${siteOrigin}/`))
        return { errcode: 47003, errmsg: 'argument invalid! data.page invalid' };
      for (const k of keywords) {
        const value = data[k]?.value;
        if (
          typeof value !== 'string' ||
          value.length === 0 ||
          (k.startsWith('thing') && [...value].length > 20)
        )
          return { errcode: 47003, errmsg: `argument invalid! data.${k}.value invalid` };
      }
      const key = consentKey(openid, templateId);
      const left = consents.get(key) ?? 0;
      if (left <= 0) return { errcode: 43101, errmsg: 'user refuse to accept the msg' };
      consents.set(key, left - 1);
      sent.push({ openid, templateId, page, data: data as FakeNotice['data'] });
      return { errcode: 0, errmsg: 'ok' };
    }
    return undefined;
  }

  /** Answers a call of the official account's API; false when the path is none of them. */
  function handle(res: ServerResponse, method: string, url: URL, body: string): boolean {
    const json = answer(method, url, body);
    if (json === undefined) return false;
    if (json === 'hang') res.destroy();
    else reply(res, json);
    return true;
  }

  /** The push WeChat sends our server, signed with the push Token: its query and XML body. */
  function push(
    openid: string,
    event: string,
    holder: string,
    list: { templateId: string; status: string }[],
  ) {
    const timestamp = String(Math.floor(opts.now().getTime() / 1000));
    const nonce = randomBytes(6).toString('hex');
    const signature = createHash('sha1').update([pushToken, timestamp, nonce].sort().join('')).digest('hex');
    const items = list
      .map(
        (l) =>
          `<List><TemplateId><![CDATA[${l.templateId}]]></TemplateId><SubscribeStatusString><![CDATA[${l.status}]]></SubscribeStatusString><PopupScene>1</PopupScene></List>`,
      )
      .join('');
    const body = `<xml><ToUserName><![CDATA[gh_123456789abc]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName><CreateTime>${createTime++}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[${event}]]></Event><${holder}>${items}</${holder}></xml>`;
    return { query: new URLSearchParams({ signature, timestamp, nonce }).toString(), body };
  }

  /** The reader answers the subscribe popup in WeChat: consents counted here, and the push to our server. */
  function popup(openid: string, answers: { templateId: string; status: 'accept' | 'reject' }[]) {
    opts.openids.add(openid);
    for (const a of answers) {
      const key = consentKey(openid, a.templateId);
      consents.set(key, a.status === 'accept' ? (consents.get(key) ?? 0) + 1 : 0);
    }
    return push(openid, 'subscribe_msg_popup_event', 'SubscribeMsgPopupEvent', answers);
  }

  return {
    handle,
    setPushToken(token: string) {
      pushToken = token;
    },
    /** Our site's origin, where notice links must lead. */
    setSiteOrigin(origin: string) {
      siteOrigin = origin;
    },
    /** A template the official account added (its keywords, e.g. thing1, thing2, time3). */
    registerTemplate(id: string, keywords = ['thing1', 'thing2', 'time3']) {
      templates.set(id, keywords);
    },
    popup,
    /**
     * The reader answers the subscribe popup inside WeChat, all of it as WeChat does it: the consents counted here,
     * the signed push sent to our server's push URL (setPushUrl) and its answer, and the `subscribeDetails` string
     * the `wx-open-subscribe` tag's success event carries to the page (per template, JSON with its status).
     */
    async answerPopup(openid: string, answers: { templateId: string; status: 'accept' | 'reject' }[]) {
      if (!pushUrl) throw new Error('official account fake: no push URL (setPushUrl)');
      const { query, body } = popup(openid, answers);
      const res = await fetch(`${pushUrl}?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body,
        signal: AbortSignal.timeout(5000),
      });
      const subscribeDetails = JSON.stringify(
        Object.fromEntries(answers.map((a) => [a.templateId, JSON.stringify({ status: a.status })])),
      );
      return { pushed: { status: res.status, text: await res.text() }, subscribeDetails };
    },
    /** Where WeChat pushes events: our server's `/h5/wechat/push` (服务器配置's URL). */
    setPushUrl(url: string) {
      pushUrl = url;
    },
    /** The reader refuses a template in WeChat's notice settings later. */
    refuse(openid: string, templateId: string) {
      consents.set(consentKey(openid, templateId), 0);
      return push(openid, 'subscribe_msg_change_event', 'SubscribeMsgChangeEvent', [
        { templateId, status: 'reject' },
      ]);
    },
    consentsLeft: (openid: string, templateId: string) => consents.get(consentKey(openid, templateId)) ?? 0,
    /** Whether wx.config's signature is right for this page URL, with a ticket WeChat issued and still honours. */
    checkConfig(url: string, c: { timestamp: number; nonceStr: string; signature: string }) {
      return [...tickets].some(
        ([ticket, until]) =>
          until > opts.now().getTime() &&
          createHash('sha1')
            .update(`jsapi_ticket=${ticket}&noncestr=${c.nonceStr}&timestamp=${c.timestamp}&url=${url}`)
            .digest('hex') === c.signature,
      );
    },
    /** The next bizsend calls answer these errcodes ('hang': the connection drops unanswered). */
    scriptSends(...outcomes: (number | 'hang')[]) {
      script.push(...outcomes);
    },
    /** Every access token ends now (WeChat renewed it elsewhere, or it expired). */
    expireTokens() {
      for (const t of tokens.keys()) tokens.set(t, 0);
    },
    sent: () => [...sent],
    calls: () => ({ ...calls }),
  };
}

export type OfficialAccountFake = ReturnType<typeof createOfficialAccountFake>;
