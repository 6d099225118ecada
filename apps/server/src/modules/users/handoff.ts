import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { handoffTokens } from '../../db/schema/index.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { badRequest, tooManyRequests } from '../../shared/errors.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import { hashToken, issueSession, SESSION_COOKIE } from './sessions.ts';
import { type UsersDeps, userInfo } from './users.service.ts';

// Out of WeChat (or QQ) without losing the account: the spec sends chat-app readers to a page asking them to open the
// system browser, where they would arrive as strangers with a new visitor account. That page asks for a one-time
// link: random (256 bits), ten minutes, one use, bound to the account that asked; only its SHA-256 is stored, and
// the token travels in a link and a POST body, never in a logged URL of ours. Opening it in another browser signs
// that browser in.

/** The web app's screen the link opens. */
export const HANDOFF_PATH = '/handoff';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const LIFETIME_MS = 10 * 60 * 1000;
/** Links one account may ask for in an hour: a reader needs one or two. */
const PER_ACCOUNT_PER_HOUR = 10;

/** A path of this site to land on, or the home page: `//host`, `/\host` and absolute addresses are not paths. */
export function safeLandingPath(raw: string | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/home';
  try {
    const url = new URL(raw, 'http://x');
    if (url.host !== 'x') return '/home';
    // Not back into the prompt or the hand-off itself.
    if (url.pathname === '/open-in-browser' || url.pathname === HANDOFF_PATH) return '/home';
    return `${url.pathname}${url.search}`;
  } catch {
    return '/home';
  }
}

export async function handoffRoutes(
  app: FastifyInstance,
  deps: UsersDeps & { db: Database; publicOrigin: string },
) {
  const { db } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.handoff, {
      preValidation: [requireSession],
      config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
    }),
    handler: async (req) => {
      const { userId } = signedIn(req);
      const now = new Date();
      const [recent] = await db
        .select({ n: count() })
        .from(handoffTokens)
        .where(
          and(
            eq(handoffTokens.userId, userId),
            gt(handoffTokens.createdAt, new Date(now.getTime() - 3600_000)),
          ),
        );
      if ((recent?.n ?? 0) >= PER_ACCOUNT_PER_HOUR) throw tooManyRequests();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + LIFETIME_MS);
      await db
        .insert(handoffTokens)
        .values({ tokenHash: hashToken(token), userId, createdAt: now, expiresAt });
      const to = safeLandingPath(req.query.to);
      const url = `${deps.publicOrigin}${HANDOFF_PATH}?token=${token}&to=${encodeURIComponent(to)}`;
      return ok({ url, expiresAt: expiresAt.toISOString() });
    },
  });

  // Opened in the other browser, the web app's /handoff screen posts the token (after asking, when that browser
  // already holds another account): it is spent in one conditional update (two tabs at once sign in one), and this
  // browser gets a new session of the account, replacing its own.
  r.route({
    ...contractRoute(routes.redeemHandoff, { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }),
    handler: async (req, reply) => {
      const { token } = req.body;
      const [spent] = TOKEN.test(token)
        ? await db
            .update(handoffTokens)
            .set({ usedAt: new Date() })
            .where(
              and(
                eq(handoffTokens.tokenHash, hashToken(token)),
                isNull(handoffTokens.usedAt),
                gt(handoffTokens.expiresAt, new Date()),
              ),
            )
            .returning({ userId: handoffTokens.userId })
        : [];
      if (!spent) {
        req.log.info({ security: 'handoff-refused' }, 'hand-off link unknown, used or expired');
        throw badRequest('链接已失效，请回到微信重新获取', 'token');
      }
      const session = await issueSession(deps.repo, spent.userId, req.cookies[SESSION_COOKIE]);
      reply.startSession(session.token, session.expiresAt);
      req.log.info({ security: 'handoff', userId: spent.userId }, 'account handed to another browser');
      return ok(await userInfo(deps, { userId: spent.userId }));
    },
  });
}
