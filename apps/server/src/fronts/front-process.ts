import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type FastLogEntry, type FastRequest, KEEP_ALIVE_MS, type KeptCopy } from '../shared/fast-path.ts';
import { installFront } from '../shared/front.ts';
import { FrontCopies } from '../shared/front-copies.ts';
import { type FrontMessage, type OwnerMessage, reviveCopy } from './messages.ts';

/** How long a front waits for the owner's copy before it hands the connection over instead. */
const ASK_TIMEOUT_MS = 10_000;
/** How often a front reports its answers for /metrics. */
const REPORT_MS = 1000;

/**
 * A front process (a node:cluster worker on the public port, with the embedded database owned by the primary): it
 * reads every connection first (front.ts) and answers kept static calls and kept images from its copies of the
 * owner's answers (front-copies.ts); any other connection it hands, from the first byte it did not answer, to the
 * owner, which keeps it to the end. It opens no database and holds nothing that is not a copy.
 */
export async function runFront(config: Config, log: Logger): Promise<void> {
  const send = (message: FrontMessage, handle?: Socket) =>
    new Promise<boolean>((resolve) => {
      if (!process.connected || !process.send) return resolve(false);
      process.send(message, handle, { keepOpen: false }, (err) => resolve(!err));
    });

  let nextId = 1;
  const waiting = new Map<number, (copy: KeptCopy | undefined) => void>();
  process.on('message', (message: OwnerMessage) => {
    if (message?.yueman === 'copy') waiting.get(message.id)?.(reviveCopy(message.copy));
    else if (message?.yueman === 'forget') copies.clear();
  });
  const ask = (req: FastRequest) =>
    new Promise<KeptCopy | undefined>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => done(undefined), ASK_TIMEOUT_MS);
      const done = (copy: KeptCopy | undefined) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(copy);
      };
      waiting.set(id, done);
      void send({ yueman: 'ask', id, req }).then((sent) => sent || done(undefined));
    });
  const copies = new FrontCopies({ ask });

  // Answers sent, counted here and reported to the owner's /metrics once a second.
  const counts = new Map<string, [string, number, string | undefined, number]>();
  const count = ({ method, status, route }: FastLogEntry) => {
    const key = `${method} ${status} ${route}`;
    const row = counts.get(key);
    if (row) row[3]++;
    else counts.set(key, [method, status, route, 1]);
  };
  const report = async () => {
    if (counts.size === 0) return;
    const rows = [...counts.values()];
    counts.clear();
    await send({ yueman: 'counts', rows });
  };
  const reporting = setInterval(() => void report(), REPORT_MS);
  reporting.unref();

  // allowHalfOpen as node:http's server: a client that half-closes still gets its answers.
  const server = createServer({ allowHalfOpen: true });
  const front = installFront(server, {
    answer: (req) => copies.answer(req),
    hooks: { answered: count },
    keepAliveMs: KEEP_ALIVE_MS,
    handOver: (socket, rest) => {
      void send({ yueman: 'connection', rest }, socket).then((sent) => {
        if (!sent) socket.destroy();
      });
    },
  });

  // SIGTERM (from the primary): stop accepting; idle connections close now, busy ones after their answer; exit once
  // none is left, or after DRAIN_SECONDS.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    front.drain();
    const exit = () => void report().finally(() => process.exit(0));
    const bound = setTimeout(exit, config.drainSeconds * 1000);
    const poll = setInterval(() => {
      if (front.size > 0) return;
      clearInterval(poll);
      clearTimeout(bound);
      exit();
    }, 50);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  server.listen({ port: config.port, host: config.host });
  await once(server, 'listening');
  log.debug({ pid: process.pid }, 'front process listening');
}
