import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { safeLandingPath } from '../../shared/landing-path.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import type { WechatOauth } from '../../shared/wechat-oauth.ts';
import {
  BIND_PATH,
  NOTICE_LINK_PATH,
  type NoticesDeps,
  noticeStatus,
  pushSignatureOk,
  receivePush,
  signWechatConfig,
} from './notices.service.ts';

/** The OAuth round trip's state, kept in a cookie of this browser: a code from someone else's trip is refused. */
const STATE_COOKIE = 'ymwx';
const PUSH_PATH = '/h5/wechat/push';

const OauthQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 512 })),
  code: Type.Optional(Type.String({ maxLength: 256 })),
  state: Type.Optional(Type.String({ maxLength: 128 })),
});
const PushQuery = Type.Object({
  signature: Type.Optional(Type.String({ maxLength: 64 })),
  timestamp: Type.Optional(Type.String({ maxLength: 16 })),
  nonce: Type.Optional(Type.String({ maxLength: 64 })),
  echostr: Type.Optional(Type.String({ maxLength: 128 })),
});

export interface NoticeRouteDeps extends NoticesDeps {
  oauth: WechatOauth | undefined;
  secureCookies: boolean;
  /** The users module's hand-off: a one-time link signing this browser in to the account, landing on `to`. */
  issueHandoff(userId: number, to: string): Promise<{ url: string }>;
}

export async function noticeRoutes(app: FastifyInstance, deps: NoticeRouteDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.noticeStatus, { preValidation: [requireSession] }),
    handler: async (req) => ok(await noticeStatus(deps, signedIn(req).userId)),
  });
  r.route({
    ...contractRoute(routes.noticeConfig, {
      preValidation: [requireSession],
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    }),
    handler: async (req) => ok(await signWechatConfig(deps, req.body.url)),
  });
  // What the tag's success event said: only logged and answered with the counts WeChat's pushes made.
  r.route({
    ...contractRoute(routes.noticeSubscribed, { preValidation: [requireSession] }),
    handler: async (req) => {
      req.log.debug({ accepted: req.body.accepted.split(',').length }, 'the page says the reader subscribed');
      return ok(await noticeStatus(deps, signedIn(req).userId));
    },
  });

  const oauth = deps.oauth;
  const origin = deps.publicOrigin;
  /** Off to WeChat's silent OAuth, coming back to `path` with a code and this browser's state. */
  const toOauth = (reply: FastifyReply, path: string, landing: string) => {
    const to = landing.slice(origin.length);
    const state = randomBytes(16).toString('hex');
    reply.setCookie(STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/h5/wechat',
      secure: deps.secureCookies,
      maxAge: 600,
    });
    return reply.redirect(
      oauth?.authorizeUrl(`${origin}${path}?to=${encodeURIComponent(to)}`, state) ?? to,
      302,
    );
  };
  /** Back from the OAuth: the openid, when the state is this browser's and WeChat took the code. */
  const openidOf = async (req: FastifyRequest, reply: FastifyReply, q: { code?: string; state?: string }) => {
    const expected = req.cookies[STATE_COOKIE];
    reply.clearCookie(STATE_COOKIE, { path: '/h5/wechat' });
    if (!oauth || !q.code || !expected || q.state !== expected) return undefined;
    const result = await oauth.openidFor(q.code);
    if (!result.ok) req.log.warn({ reason: result.reason }, 'WeChat OAuth gave no openid for notices');
    return result.ok ? result.openid : undefined;
  };

  // Binding the reader's WeChat (openid) to the account, so WeChat's pushes and our sends know whose it is.
  r.get(
    BIND_PATH,
    {
      schema: { hide: true, querystring: OauthQuery },
      config: { session: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const to = `${origin}${safeLandingPath(req.query.to)}`;
      if (!deps.settings || !oauth || !req.user) return reply.redirect(to, 302);
      if (!req.query.code) return toOauth(reply, BIND_PATH, to);
      const openid = await openidOf(req, reply, req.query);
      if (openid) {
        await deps.repo.bind(req.user.userId, openid, new Date());
        req.log.info({ notices: 'bound', userId: req.user.userId }, 'WeChat bound for notices');
      }
      return reply.redirect(to, 302);
    },
  );

  // A notice's link: WeChat's OAuth says whose WeChat opened it; the hand-off signs this browser in to that account
  // (after asking, when the browser holds another), landing in the chapter.
  r.get(
    NOTICE_LINK_PATH,
    {
      schema: { hide: true, querystring: OauthQuery },
      config: { session: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const to = `${origin}${safeLandingPath(req.query.to)}`;
      if (!deps.settings || !oauth) return reply.redirect(to, 302);
      if (!req.query.code) return toOauth(reply, NOTICE_LINK_PATH, to);
      const openid = await openidOf(req, reply, req.query);
      const userId = openid === undefined ? undefined : await deps.repo.userOfOpenid(openid);
      if (userId === undefined || userId === req.user?.userId) return reply.redirect(to, 302);
      try {
        return reply.redirect((await deps.issueHandoff(userId, to.slice(origin.length))).url, 302);
      } catch {
        // Too many links this hour: the page, as whoever this browser is.
        return reply.redirect(to, 302);
      }
    },
  );

  // WeChat's event push: GET checks the address once (echostr back), POST brings events (XML, plain-text mode).
  r.get(PUSH_PATH, { schema: { hide: true, querystring: PushQuery } }, async (req, reply) => {
    const token = deps.settings?.pushToken;
    if (!token || !pushSignatureOk(token, req.query)) return reply.code(403).type('text/plain').send('');
    return reply.type('text/plain').send(req.query.echostr ?? '');
  });
  await app.register(async (scope) => {
    scope.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      PUSH_PATH,
      {
        schema: { hide: true, querystring: PushQuery },
        config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        if (!deps.settings) return reply.code(404).type('text/plain').send('');
        const body = typeof req.body === 'string' ? req.body : '';
        const outcome = await receivePush(deps, req.query, body);
        if (outcome === 'refused') return reply.code(403).type('text/plain').send('');
        // WeChat takes "success" (or an empty answer) as received.
        return reply.type('text/plain').send('success');
      },
    );
  });
}
