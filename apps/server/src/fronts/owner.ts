import type { Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { FastRequest, KeptCopy } from '../shared/fast-path.ts';
import { isFrontMessage, type OwnerMessage, reviveRest, sendableCopy } from './messages.ts';

export interface OwnerOptions {
  /** The owner's HTTP server (Fastify's, with the front installed): handed connections are its from then on. */
  server: Server;
  /** A copy of a GET's kept answer for a front, or undefined when the owner must answer it itself. */
  copyFor: (req: FastRequest) => Promise<KeptCopy | undefined>;
  /** Answers the fronts sent themselves, for /metrics. */
  counted: (method: string, status: number, route: string | undefined, count: number) => void;
  log: Logger;
}

/**
 * The owner's side of the front processes (docs/scaling.md, "Every core with the embedded database"): this process
 * owns the database and runs the whole service; the fronts, which read every connection first, ask it for copies of
 * kept answers and hand it every connection they cannot answer. Returns the listener for the workers' messages.
 */
export function serveFronts(opts: OwnerOptions): (worker: Worker, message: unknown, handle: unknown) => void {
  const { server } = opts;
  /** What net.Server does for a connection it accepted (net.js onconnection), so that close() waits for it too. */
  const adopt = (socket: Socket) => {
    const internal = socket as Socket & { server?: Server; _server?: Server };
    const counted = server as Server & { _connections: number };
    internal.server = server;
    internal._server = server;
    counted._connections++;
    // As node:http's own sockets: a client's half-close must not end our side before its answer is written.
    socket.allowHalfOpen = true;
  };

  return (worker, message, handle) => {
    if (!isFrontMessage(message)) return;
    switch (message.yueman) {
      case 'ask':
        opts
          .copyFor(message.req)
          .catch((err) => {
            opts.log.error({ err, url: message.req.url }, 'a copy for a front process failed');
            return undefined;
          })
          .then((copy) => {
            const answer: OwnerMessage = {
              yueman: 'copy',
              id: message.id,
              copy: copy ? sendableCopy(copy) : null,
            };
            if (worker.isConnected()) worker.send(answer);
          });
        return;
      case 'connection': {
        const socket = handle as Socket | undefined;
        if (!socket) return;
        if (!server.listening) {
          // Stopped: nobody here will answer it.
          socket.destroy();
          return;
        }
        adopt(socket);
        // Before any byte read here reaches a listener: the handle was received in this same turn.
        const rest = reviveRest(message.rest);
        if (rest) socket.unshift(rest);
        server.emit('connection', socket);
        return;
      }
      case 'counts':
        for (const [method, status, route, count] of message.rows) opts.counted(method, status, route, count);
        return;
    }
  };
}
