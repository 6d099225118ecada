import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from './errors.ts';

/** The user a session cookie establishes (the users module's identity plugin resolves it). */
export interface SignedInUser {
  userId: number;
  account: string;
  vipEnd: Date | null;
  /** Blocked by an operator: may read what is free and owned, may neither pay nor buy. */
  blocked: boolean;
}

/**
 * What a blocked reader is told when they try to pay or buy (the wallet's buy, the payments' apply): 403 with this
 * sentence in the envelope. The operator's own reason stays in the console.
 */
export const accountBlocked = () =>
  forbidden('您的账号已被暂停充值和购买，免费章节和已购章节仍可阅读。如有疑问，请联系客服。');

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, established by the `sid` cookie alone (docs/api.md section 2). */
    user: SignedInUser | null;
  }
  interface FastifyReply {
    startSession(token: string, expiresAt: Date): FastifyReply;
  }
  interface FastifyContextConfig {
    /** Resolve the session on a route outside /api (the identity plugin does so for every dynamic /api call). */
    session?: boolean;
  }
}

/** The signed-in user of a call that needs one; 401 without a session. */
export function signedIn(req: FastifyRequest): SignedInUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** preValidation of calls that need a session: 401 before validation, whatever the parameters. */
export async function requireSession(req: FastifyRequest, _reply: FastifyReply) {
  signedIn(req);
}
