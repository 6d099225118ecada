import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { OperatorRole } from '../../db/schema/index.ts';
import { forbidden } from '../../shared/errors.ts';
import { notSignedIn, roleRefused } from './operators.errors.ts';
import type { OperatorRow, OperatorsRepository } from './operators.repository.ts';
import { auditRefusal, operatorOf } from './operators.service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The roles that reach an /api/admin/ route; required on every one of them but the login. */
    operatorRoles?: readonly OperatorRole[];
  }
  interface FastifyRequest {
    /** The signed-in operator of an /api/admin/ call (set before validation; the route refuses without one). */
    operator: OperatorRow | null;
  }
}

export const OPERATOR_COOKIE = 'yadm';
/** The console's calls: the only path the operator's cookie is sent to. */
export const ADMIN_API = '/api/admin';
export const LOGIN_URL = `${ADMIN_API}/login`;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const setOperatorCookie = (reply: FastifyReply, token: string, expiresAt: Date, secure: boolean) =>
  reply.setCookie(OPERATOR_COOKIE, token, {
    path: ADMIN_API,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: expiresAt,
  });

export const clearOperatorCookie = (reply: FastifyReply, secure: boolean) =>
  reply.clearCookie(OPERATOR_COOKIE, { path: ADMIN_API, httpOnly: true, sameSite: 'strict', secure });

/**
 * The console's door. Every /api/admin/ write must come from one of our own pages: its Origin (or Referer) must be
 * there and be ours; the app-wide check (shared/origin-check.ts) lets a request with neither through, which the
 * console does not. Every /api/admin/ call but the login needs a live session of an enabled operator whose role
 * the route names: 401 otherwise, 403 for a role the route does not name. Decided before the body is validated,
 * so nothing about the call's input is learnt without the right.
 */
export default fp(
  async (app: FastifyInstance, opts: { repo: OperatorsRepository; origins: ReadonlySet<string> }) => {
    app.decorateRequest('operator', null);

    const ownOrigin = (req: FastifyRequest) => {
      const origin = req.headers.origin ?? req.headers.referer;
      if (typeof origin !== 'string') return false;
      try {
        return opts.origins.has(new URL(origin).origin);
      } catch {
        return false;
      }
    };

    const fromOurPages: onRequestHookHandler = async (req) => {
      if (READS.has(req.method) || ownOrigin(req)) return;
      req.log.warn(
        { security: 'admin-origin', url: req.routeOptions.url },
        'console write without our origin refused',
      );
      throw forbidden('请求来源不被允许');
    };

    const signedIn =
      (roles: readonly OperatorRole[]): onRequestHookHandler =>
      async (req) => {
        const token = req.cookies[OPERATOR_COOKIE];
        const operator = token ? await operatorOf(opts.repo, token) : undefined;
        if (!operator) throw notSignedIn();
        if (!roles.includes(operator.role)) {
          req.log.warn(
            {
              security: 'admin-role',
              operatorId: operator.id,
              role: operator.role,
              url: req.routeOptions.url,
            },
            'console call refused for this role',
          );
          // A refused write is in the audit log too (reads only in the log: a console page asks many).
          if (!READS.has(req.method)) {
            const call = `${req.method} ${req.routeOptions.url}`;
            await auditRefusal({ repo: opts.repo, log: req.log }, { operator, call, ip: req.ip });
          }
          throw roleRefused();
        }
        req.operator = operator;
      };

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(`${ADMIN_API}/`)) return;
      const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
      if (route.url === LOGIN_URL) {
        route.onRequest = [...existing, fromOurPages];
        return;
      }
      const roles = route.config?.operatorRoles;
      if (!roles || roles.length === 0) {
        throw new Error(
          `${route.method} ${route.url}: a console route must name its roles (config.operatorRoles)`,
        );
      }
      route.onRequest = [...existing, fromOurPages, signedIn(roles)];
    });
  },
  { name: 'operator-session', dependencies: ['@fastify/cookie'] },
);

/** Who makes a console write, as the audit log records it: the signed-in operator's id and name. */
export function auditActorOf(req: FastifyRequest): { operatorId: number; actor: string } {
  const operator = operatorOfRequest(req);
  return { operatorId: operator.id, actor: operator.name };
}

/** The operator of a call the plugin let through. */
export function operatorOfRequest(req: FastifyRequest): OperatorRow {
  if (!req.operator) throw notSignedIn();
  return req.operator;
}
