import { createHash, timingSafeEqual } from 'node:crypto';
import type { NoticeStatus } from '@yueman/contract';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyBaseLogger } from 'fastify';
import { NOTICE_KINDS, type NoticeKind, type NoticeSettings } from '../../config-notices.ts';
import { chinaDate, chinaDay, chinaTimeParts } from '../../shared/china-time.ts';
import { noticesNotConfigured, notOurPage } from './notices.errors.ts';
import type { NoticesRepository, NoticeToEnqueue } from './notices.repository.ts';
import { NO_CONSENT, type WechatMp } from './wechat-mp.ts';

export interface NoticesDeps {
  settings: NoticeSettings | undefined;
  repo: NoticesRepository;
  mp: WechatMp | undefined;
  publicOrigin: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** The reader was told of a 攒更 pile up to this chapter (the users module keeps follows): the next counts on. */
  pileTold?: (userId: number, bookId: number, chapter: number) => Promise<void>;
}

/** Where the web app's chapters and pages are. */
export const chapterPath = (bookId: number, number: number) => `/book/read/${bookId}/${number}`;
export const NOTICE_LINK_PATH = '/h5/wechat/notice';
export const BIND_PATH = '/h5/wechat/bind';

function configured(deps: NoticesDeps) {
  if (!deps.settings || !deps.mp) throw noticesNotConfigured();
  return { settings: deps.settings, mp: deps.mp };
}

/** The templates to offer and what each still allows (what WeChat pushed to us, minus what was sent). */
export async function noticeStatus(deps: NoticesDeps, userId: number): Promise<NoticeStatus> {
  const { settings } = configured(deps);
  const [openid, consents] = await Promise.all([deps.repo.openidOf(userId), deps.repo.consents(userId)]);
  const left = new Map(consents.map((c) => [c.templateId, c.remaining]));
  return {
    bound: openid !== undefined,
    bindUrl: BIND_PATH,
    templates: NOTICE_KINDS.flatMap((kind) => {
      const templateId = settings.templates[kind];
      return templateId ? [{ kind, templateId, remaining: left.get(templateId) ?? 0 }] : [];
    }),
  };
}

/** wx.config for a page of this site: the address without its #fragment, as WeChat signs it. */
export async function signWechatConfig(deps: NoticesDeps, rawUrl: string) {
  const { mp } = configured(deps);
  const url = rawUrl.split('#')[0] ?? '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notOurPage();
  }
  if (parsed.origin !== deps.publicOrigin || !url.startsWith(`${deps.publicOrigin}/`)) throw notOurPage();
  return { ...(await mp.signConfig(url)), openTagList: ['wx-open-subscribe'] };
}

// ---- WeChat's event push (服务器配置, plain-text mode) ----

/** WeChat's check of a push: sha1 of the Token, timestamp and nonce, sorted and joined. */
export function pushSignatureOk(
  token: string,
  q: { signature?: string; timestamp?: string; nonce?: string },
) {
  if (!q.signature || !q.timestamp || !q.nonce) return false;
  const expected = createHash('sha1').update([token, q.timestamp, q.nonce].sort().join(''), 'utf8').digest();
  const given = Buffer.from(q.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A push older or newer than this is refused: a replayed push cannot add consents. */
const PUSH_WINDOW_S = 10 * 60;

const xml = new XMLParser({
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'List',
  processEntities: false,
});

interface ConsentChange {
  TemplateId?: string;
  SubscribeStatusString?: string;
}

/**
 * A push WeChat signed: subscribe_msg_popup_event (the reader answered the popup: each accept allows one notice)
 * and subscribe_msg_change_event (a reject in WeChat's settings: no more notices). Other events are answered and
 * ignored. The same push counts once (WeChat pushes again when we are slow).
 */
export async function receivePush(
  deps: NoticesDeps,
  q: { signature?: string; timestamp?: string; nonce?: string },
  body: string,
): Promise<'ok' | 'refused'> {
  const { settings } = configured(deps);
  const now = deps.now?.() ?? new Date();
  if (!pushSignatureOk(settings.pushToken, q)) return 'refused';
  if (Math.abs(now.getTime() / 1000 - Number(q.timestamp)) > PUSH_WINDOW_S) return 'refused';
  let msg: Record<string, unknown>;
  try {
    msg = (xml.parse(body) as { xml?: Record<string, unknown> }).xml ?? {};
  } catch {
    return 'refused';
  }
  const event = String(msg.Event ?? '');
  const openid = String(msg.FromUserName ?? '');
  const holder =
    event === 'subscribe_msg_popup_event'
      ? msg.SubscribeMsgPopupEvent
      : event === 'subscribe_msg_change_event'
        ? msg.SubscribeMsgChangeEvent
        : undefined;
  if (!holder || !openid) return 'ok';
  const userId = await deps.repo.userOfOpenid(openid);
  // A WeChat not bound to an account here: nothing to keep.
  if (userId === undefined) return 'ok';
  const key = `${openid}:${String(msg.CreateTime ?? '')}:${event}`;
  if (!(await deps.repo.firstPush(key, now))) return 'ok';
  const ours = new Set(Object.values(settings.templates));
  for (const change of ((holder as { List?: ConsentChange[] }).List ?? []).slice(0, 16)) {
    const templateId = String(change.TemplateId ?? '');
    if (!ours.has(templateId)) continue;
    if (change.SubscribeStatusString === 'accept') await deps.repo.accept(userId, templateId, now);
    else if (change.SubscribeStatusString === 'reject') await deps.repo.noneLeft(userId, templateId, now);
  }
  deps.log.info({ notices: event, userId }, 'WeChat notice consent changed');
  return 'ok';
}

// ---- the outbox ----

/** WeChat's template keywords: a title and a line of at most 20 characters, and a time. */
const short = (text: string) => [...text].slice(0, 20).join('');

/**
 * The one entry point for a notice owed: `eventKey` names the event the same way whatever calls it (two servers, a
 * retry), so the reader gets it once. The chapter, when given, is where the notice's link lands. Answers whether it
 * was new. New chapters of followed books and 攒更 come in here (`new_chapter:{bookId}:{number}`, `saved_up:…`).
 */
export async function enqueueNotice(
  deps: Pick<NoticesDeps, 'repo' | 'now'>,
  n: {
    userId: number;
    kind: NoticeKind;
    eventKey: string;
    bookId?: number;
    chapterNumber?: number;
    title: string;
    text: string;
  },
): Promise<boolean> {
  const at = deps.now?.() ?? new Date();
  const row: NoticeToEnqueue = {
    userId: n.userId,
    kind: n.kind,
    eventKey: n.eventKey,
    bookId: n.bookId ?? null,
    chapterNumber: n.chapterNumber ?? null,
    data: { thing1: short(n.title), thing2: short(n.text), time3: chinaTimeParts(at).text },
    dueAt: at,
  };
  return (await deps.repo.enqueue([row])) === 1;
}

/** How many follows one pass looks at per kind: the rest wait for the next pass (a minute later). */
const FOLLOWS_PER_PASS = 500;

/**
 * Waits for free ended in the last day, tickets ending within a day, new chapters of followed books and 攒更 piles
 * reached, owed to readers who allow them.
 */
export async function findEvents(deps: NoticesDeps) {
  const { settings } = configured(deps);
  const now = deps.now?.() ?? new Date();
  const day = 24 * 3600 * 1000;
  let made = 0;
  const waitTemplate = settings.templates.wait_free;
  if (waitTemplate) {
    for (const w of await deps.repo.waitsEnded(new Date(now.getTime() - day), now, waitTemplate)) {
      const ready = new Date(w.readyAt);
      const fresh = await enqueueNotice(deps, {
        userId: w.userId,
        kind: 'wait_free',
        eventKey: `wait_free:${w.bookId}:${ready.getTime()}`,
        bookId: w.bookId,
        chapterNumber: w.chapterNumber ?? 1,
        title: w.title,
        text: '等待结束，可免费解锁下一话',
      });
      if (fresh) made++;
    }
  }
  const ticketTemplate = settings.templates.ticket_expiring;
  if (ticketTemplate) {
    for (const t of await deps.repo.ticketsEnding(now, new Date(now.getTime() + day), ticketTemplate)) {
      const soonest = new Date(t.soonest);
      const fresh = await enqueueNotice(deps, {
        userId: t.userId,
        kind: 'ticket_expiring',
        // One notice per China day the reader's tickets end on.
        eventKey: `ticket_expiring:${chinaDate(soonest)}`,
        title: `${t.count}张阅读券即将过期`,
        text: `${chinaTimeParts(soonest).text}前使用`,
      });
      if (fresh) made++;
    }
  }
  const newChapterTemplate = settings.templates.new_chapter;
  if (newChapterTemplate) {
    for (const f of await deps.repo.followedReleases(newChapterTemplate, FOLLOWS_PER_PASS)) {
      const fresh = await enqueueNotice(deps, {
        userId: f.userId,
        kind: 'new_chapter',
        eventKey: `new_chapter:${f.bookId}:${f.latest}`,
        bookId: f.bookId,
        chapterNumber: f.latest,
        title: f.title,
        text: `第${f.latest}话已更新`,
      });
      if (fresh) made++;
    }
  }
  const savedUpTemplate = settings.templates.saved_up;
  if (savedUpTemplate) {
    for (const f of await deps.repo.pilesReached(savedUpTemplate, FOLLOWS_PER_PASS)) {
      const fresh = await enqueueNotice(deps, {
        userId: f.userId,
        kind: 'saved_up',
        eventKey: `saved_up:${f.bookId}:${f.latest}`,
        bookId: f.bookId,
        chapterNumber: f.latest - f.piled + 1,
        title: f.title,
        text: `已攒${f.piled}话，更新至第${f.latest}话`,
      });
      // Told once: the next pile counts from this one's newest chapter, whether or not this pass made the row.
      await deps.pileTold?.(f.userId, f.bookId, f.latest);
      if (fresh) made++;
    }
  }
  return made;
}

const BATCH = 20;
/** Retries after WeChat refused: 1, 2, 4… minutes, at most 6 hours apart, given up after this many attempts. */
const MAX_ATTEMPTS = 6;
const backoffMs = (attempts: number) => Math.min(2 ** (attempts - 1) * 60_000, 6 * 3600_000);
/** A claim older than this was never marked: its server died mid-send. */
const STALE_CLAIM_MS = 10 * 60_000;

/** The notice's link: back into the chapter (or the page) through WeChat's OAuth and the hand-off. */
export function noticeLink(
  publicOrigin: string,
  n: { kind: NoticeKind; bookId: number | null; chapterNumber: number | null },
) {
  const to =
    n.bookId !== null && n.chapterNumber !== null
      ? chapterPath(n.bookId, n.chapterNumber)
      : n.bookId !== null
        ? `/book/${n.bookId}`
        : n.kind === 'ticket_expiring'
          ? '/user/tickets'
          : '/home';
  return `${publicOrigin}${NOTICE_LINK_PATH}?to=${encodeURIComponent(to)}`;
}

/**
 * One pass of the sender: claims due notices (committed before WeChat is asked: at most once), sends each, marks it.
 * WeChat's 43101 ends the consent; another errcode (nothing sent) is retried with backoff, the consent given back;
 * no answer at all (WeChat may have sent it) is never retried. Answers whether a full batch went (more to do).
 */
export async function sendDue(deps: NoticesDeps): Promise<{ sent: number; more: boolean }> {
  const { settings, mp } = configured(deps);
  const now = deps.now?.() ?? new Date();
  await deps.repo.abandonStale(new Date(now.getTime() - STALE_CLAIM_MS));
  const today = chinaDay(chinaDate(now));
  if (!today) throw new Error('no China day for now');
  const claimed = await deps.repo.claimDue({
    now,
    limit: BATCH,
    perDay: settings.perDay,
    dayStart: today.from,
    nextDay: today.to,
    templateOf: (kind) => settings.templates[kind],
  });
  let sent = 0;
  for (const n of claimed) {
    const outcome = await mp.send({
      openid: n.openid,
      templateId: n.templateId,
      page: noticeLink(deps.publicOrigin, n),
      data: Object.fromEntries(Object.entries(n.data).map(([k, value]) => [k, { value }])),
    });
    if (outcome.ok) {
      await deps.repo.markSent(n.id, deps.now?.() ?? new Date());
      sent++;
    } else if (outcome.errcode === NO_CONSENT) {
      await deps.repo.noneLeft(n.userId, n.templateId, now);
      await deps.repo.markFailed(n.id, `errcode ${NO_CONSENT}: no consent left`);
    } else if (outcome.errcode === undefined || n.attempts >= MAX_ATTEMPTS) {
      await deps.repo.markFailed(n.id, outcome.errmsg);
      deps.log.warn({ notice: n.id, reason: outcome.errmsg }, 'WeChat notice not sent');
    } else {
      await deps.repo.retryLater(
        n,
        new Date(now.getTime() + backoffMs(n.attempts)),
        `errcode ${outcome.errcode} ${outcome.errmsg}`,
        now,
      );
    }
  }
  return { sent, more: claimed.length === BATCH };
}
