import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness.ts';

/** Requests Fastify took on a connection and has not finished answering (a pipelining client queues several). */
const PENDING = Symbol('yueman.pendingRequests');
type Counted = { [PENDING]?: number };

/** During the drain every answer closes its connection, those node:http sends before Fastify's hooks included. */
const closeAfterAnswer = (_req: IncomingMessage, res: ServerResponse) => res.setHeader('connection', 'close');

/**
 * Shutdown as app.close() runs it (main.ts, on SIGTERM): its preClose hook marks /readyz draining before the port
 * stops listening. Node then closes only the keep-alive connections idle at that moment, so every answer sent
 * while draining carries `Connection: close`, and the client moves to another server instead of waiting for the
 * keep-alive timeout. Except one with more requests queued behind it on its connection (pipelining): Node would
 * drop their answers, so only the last of them closes it. Connections left idle are closed after each answer.
 * Cost before the drain: one counter up and down per request.
 *
 * A request a client sent on an idle keep-alive connection just as the drain began (on its way, or unread in the
 * socket) would be lost with the connection, reset unprocessed. So for DRAIN_GRACE_MS nothing is closed yet: what
 * arrives meanwhile is read and answered with `Connection: close` (new connections too), and only then does the port
 * stop listening and are the connections still idle closed.
 */
export const DRAIN_GRACE_MS = 1000;

export function registerDrain(app: FastifyInstance, readiness: Readiness) {
  let draining = false;
  let graceOver = false;
  app.addHook('preClose', (done) => {
    draining = true;
    readiness.drain();
    app.server.prependListener('request', closeAfterAnswer);
    // Only a server that listens has connections (tests that inject close at once).
    if (!app.server.listening) {
      graceOver = true;
      done();
      return;
    }
    setTimeout(() => {
      graceOver = true;
      done();
    }, DRAIN_GRACE_MS);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const socket = request.raw.socket as Counted;
    socket[PENDING] = (socket[PENDING] ?? 0) + 1;
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (draining) {
      if (((request.raw.socket as Counted)[PENDING] ?? 0) > 1) {
        // Fastify (closing) and closeAfterAnswer set it on the raw response.
        reply.raw.removeHeader('connection');
        reply.removeHeader('connection');
      } else {
        reply.header('connection', 'close');
      }
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const socket = request.raw.socket as Counted;
    // Never below 0: a request refused before routing (an undecodable URL) skips onRequest.
    socket[PENDING] = Math.max(0, (socket[PENDING] ?? 0) - 1);
    if (draining && graceOver) app.server.closeIdleConnections();
    done();
  });
}
