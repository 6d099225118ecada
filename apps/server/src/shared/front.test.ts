import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FastAnswer, type FastRequest, isPromise } from './fast-path.ts';
import { installFront } from './front.ts';

// The reference: node:http itself sending the fast paths' answers, as the app did before the front.
/** A fast request from a request node:http parsed: GET and HEAD only (nothing else has a fast answer). */
function fastRequestOf(req: IncomingMessage): FastRequest | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const ifNoneMatch = req.headers['if-none-match'];
  return {
    method: req.method,
    url: req.url ?? '/',
    ifNoneMatch,
    acceptEncoding: req.headers['accept-encoding'],
  };
}

/** Sends an answer through node:http (a connection the front handed over); resolves when it is written. */
function sendThroughNode(req: IncomingMessage, res: ServerResponse, answer: FastAnswer): Promise<void> {
  res.writeHead(answer.status, answer.headers);
  if (req.method === 'HEAD' || (!answer.body && !answer.stream)) {
    answer.stream?.destroy();
    res.end();
    return Promise.resolve();
  }
  if (answer.body) {
    res.end(answer.body);
    return Promise.resolve();
  }
  const stream = answer.stream as Readable;
  return new Promise((resolve) => {
    stream.once('error', () => res.destroy());
    res.once('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}

/**
 * Differential tests of the front (front.ts), a hand-written HTTP reader: the same raw bytes go to three servers
 * and what comes back is compared.
 *   A: node:http alone, its handler echoes what node:http parsed (method, url, version, raw headers, body length).
 *   B: the same node:http server and handler with the front installed; the front answers the kept URLs below.
 *   C: node:http alone, its handler sends the kept answers through node:http (as app.ts does) and echoes the rest:
 *      the oracle of what a kept answer looks like on the wire, and of which requests node:http sees as kept ones.
 * The rule, for every answer i on a connection: B's is A's byte for byte (node:http answered it in both), or the
 * front answered it and then it is C's byte for byte (node:http parsed that very request as a kept one). Only the
 * Date header is normalised. Same number of answers, same order, same close by the server.
 */

const TIMEOUTS = {
  headersTimeout: 1500,
  requestTimeout: 3000,
  // Not a whole second, so that Keep-Alive: timeout=<s> is rounded as node:http rounds it.
  keepAliveTimeout: 2500,
  connectionsCheckingInterval: 100,
};

const BODY = Buffer.from('the kept body\n');
const kept: FastAnswer = {
  status: 200,
  headers: {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(BODY.length),
    ETag: '"v1"',
    'Cache-Control': 'public, max-age=60',
  },
  body: BODY,
};
const notModified: FastAnswer = {
  status: 304,
  headers: { ETag: '"v1"', 'Cache-Control': 'public, max-age=60' },
};

/** The fast path of the test: /kept (query ignored), /kept304 (304 on a matching If-None-Match), /kept-async. */
function fastPath(req: FastRequest): FastAnswer | undefined | Promise<FastAnswer | undefined> {
  const path = req.url.split('?')[0];
  if (path === '/kept') return kept;
  if (path === '/kept304') return req.ifNoneMatch === '"v1"' ? notModified : kept;
  if (path === '/kept-async') return new Promise((resolve) => setTimeout(() => resolve(kept), 20));
  return undefined;
}

function echo(req: IncomingMessage, res: ServerResponse) {
  let bodyLength = 0;
  req.on('data', (chunk: Buffer) => {
    bodyLength += chunk.length;
  });
  req.on('end', () => {
    const { method, url, httpVersion, rawHeaders } = req;
    const body = Buffer.from(JSON.stringify({ method, url, httpVersion, rawHeaders, bodyLength }));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length, 'X-Echo': '1' });
    res.end(body);
  });
}

/** C's handler: node:http parses, the fast path answers through node:http, or the echo. */
async function keptThroughNode(req: IncomingMessage, res: ServerResponse) {
  const request = fastRequestOf(req);
  const result = request && fastPath(request);
  const answer = isPromise(result) ? await result : result;
  if (!answer) return echo(req, res);
  req.resume();
  await sendThroughNode(req, res, answer);
}

const servers: Server[] = [];
const ports = { a: 0, b: 0, c: 0 };
/** Requests the front answered itself (its hook). */
let frontAnswered = 0;
/** GET /kept as node:http sends it on a kept-alive connection (C). */
let keptAnswer = '';

async function listen(server: Server): Promise<number> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

beforeAll(async () => {
  ports.a = await listen(createServer(TIMEOUTS, echo));
  const b = createServer(TIMEOUTS, echo);
  installFront(b, {
    answer: fastPath,
    hooks: { answered: () => frontAnswered++ },
    keepAliveMs: TIMEOUTS.keepAliveTimeout,
  });
  ports.b = await listen(b);
  ports.c = await listen(createServer(TIMEOUTS, (req, res) => void keptThroughNode(req, res)));
  [keptAnswer] = answers((await exchange(ports.c, [get('/kept')], false, 200)).data) as [string];
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A step of a client: bytes to write, or milliseconds to wait. */
type Step = string | Buffer | number;

interface Outcome {
  data: Buffer;
  /** Milliseconds from the first write to the first byte of the answer. */
  firstByteMs: number | undefined;
  /** The server ended or reset the connection before the client gave up. */
  serverClosed: boolean;
}

/**
 * Connects, writes the steps, then half-closes (`end`) or not, and collects everything until the connection
 * closes or nothing arrived for `quietMs`.
 */
async function exchange(port: number, steps: Step[], end: boolean, quietMs: number): Promise<Outcome> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  const start = performance.now();
  let firstByteMs: number | undefined;
  let serverClosed = false;
  let quiet: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => {
    const giveUp = () => {
      socket.destroy();
      resolve();
    };
    const rearm = () => {
      clearTimeout(quiet);
      quiet = setTimeout(giveUp, quietMs);
    };
    socket.on('data', (chunk: Buffer) => {
      firstByteMs ??= performance.now() - start;
      chunks.push(chunk);
      rearm();
    });
    socket.on('end', () => {
      serverClosed = true;
    });
    socket.on('error', () => {
      serverClosed = true;
    });
    socket.on('close', () => {
      clearTimeout(quiet);
      resolve();
    });
    socket.once('armed', rearm);
  });
  for (const step of steps) {
    if (typeof step === 'number') await new Promise((r) => setTimeout(r, step));
    else if (!socket.destroyed) socket.write(step);
  }
  if (end && !socket.destroyed) socket.end();
  socket.emit('armed');
  await closed;
  return { data: Buffer.concat(chunks), firstByteMs, serverClosed };
}

/** Splits a connection's bytes into answers, Date normalised. A body follows only when the next bytes are not an
 * answer's status line (HEAD and 304 carry Content-Length or nothing without a body). */
function answers(data: Buffer): string[] {
  const out: string[] = [];
  let rest = data.toString('latin1');
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) {
      out.push(rest);
      break;
    }
    const head = rest.slice(0, end + 4);
    rest = rest.slice(end + 4);
    const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(head);
    const bodyLength = length && !rest.startsWith('HTTP/1.') ? Number(length[1]) : 0;
    out.push((head + rest.slice(0, bodyLength)).replace(/\r\nDate: [^\r\n]*\r\n/i, '\r\nDate: <date>\r\n'));
    rest = rest.slice(bodyLength);
  }
  return out;
}

interface Case {
  name: string;
  steps: Step[];
  /** How many of the connection's requests the front should answer itself (0: node:http answers them all;
   * undefined: not checked, the rule alone). */
  front: number | undefined;
  /** Half-close after writing (default), or keep the connection open until the server is quiet. */
  end?: boolean;
  quietMs?: number;
  /**
   * node:http drops an answer its handler sends after the client half-closed (it ends the socket at once): with an
   * async kept URL and a half-close the oracle C has nothing to say, and the front's answer is compared with the
   * kept answer C sends on a connection left open.
   */
  asyncHalfClose?: boolean;
}

/** Runs a case on A, B and C at once and checks the rule; returns the outcomes for further checks. */
async function differential(c: Case) {
  const before = frontAnswered;
  const end = c.end ?? true;
  const quietMs = c.quietMs ?? 400;
  const [a, b, o] = await Promise.all([
    exchange(ports.a, c.steps, end, quietMs),
    exchange(ports.b, c.steps, end, quietMs),
    exchange(ports.c, c.steps, end, quietMs),
  ]);
  const [ra, rb, rc] = [answers(a.data), answers(b.data), answers(o.data)];
  expect(rb.length, 'as many answers as node:http alone').toBe(ra.length);
  if (c.asyncHalfClose) rc.splice(0, rc.length, ...ra.map(() => keptAnswer));
  expect(rc.length, 'the oracle answers as often as node:http alone').toBe(ra.length);
  let fronted = 0;
  for (let i = 0; i < rb.length; i++) {
    if (rb[i] === ra[i]) continue;
    // Not node:http's echo: then the front's answer, exactly what node:http sends for that request when kept.
    expect(rb[i], `answer ${i} is A's or the kept answer node:http would send`).toBe(rc[i]);
    expect(rc[i], `answer ${i}: node:http saw a kept request`).not.toBe(ra[i]);
    fronted++;
  }
  if (c.front !== undefined) expect(fronted, 'answers sent by the front').toBe(c.front);
  expect(frontAnswered - before, "the front's hook counts them").toBe(fronted);
  expect(b.serverClosed, 'B closes when A closes').toBe(a.serverClosed);
  return { a, b, ra, rb };
}

const H = 'Host: x\r\n';
const get = (url: string, headers = '') => `GET ${url} HTTP/1.1\r\n${H}${headers}\r\n`;

const corpus: Case[] = [
  { name: 'GET of a kept URL', steps: [get('/kept')], front: 1 },
  { name: 'GET of an unkept URL', steps: [get('/other')], front: 0 },
  { name: 'HEAD of a kept URL', steps: [`HEAD /kept HTTP/1.1\r\n${H}\r\n`], front: 1 },
  { name: 'HEAD of an unkept URL', steps: [`HEAD /other HTTP/1.1\r\n${H}\r\n`], front: 0 },
  {
    name: 'kept304 with a matching If-None-Match',
    steps: [get('/kept304', 'If-None-Match: "v1"\r\n')],
    front: 1,
  },
  {
    name: 'kept304 with another If-None-Match',
    steps: [get('/kept304', 'If-None-Match: "v0"\r\n')],
    front: 1,
  },
  { name: 'kept URL with a query string', steps: [get('/kept?v=1&x=%20')], front: 1 },
  { name: 'pipelined kept, unkept, kept', steps: [get('/kept') + get('/other') + get('/kept')], front: 1 },
  { name: 'pipelined kept, kept, unkept', steps: [get('/kept') + get('/kept') + get('/other')], front: 2 },
  {
    name: 'pipelined kept, then unkept in a later write',
    steps: [get('/kept'), 50, get('/other')],
    front: 1,
  },
  {
    name: 'kept, then a head split across writes',
    steps: [get('/kept'), 50, 'GET /kept HT', 50, `TP/1.1\r\n${H}\r\n`],
    front: 1,
  },
  { name: 'a kept request split byte by byte', steps: [...get('/kept')].flatMap((ch) => [ch, 2]), front: 0 },
  { name: 'the final CRLF in a second write', steps: [`GET /kept HTTP/1.1\r\n${H}`, 30, '\r\n'], front: 0 },
  { name: 'Connection: close on a kept URL', steps: [get('/kept', 'Connection: close\r\n')], front: 1 },
  {
    name: 'Connection: close, not half-closed',
    steps: [get('/kept', 'Connection: close\r\n')],
    front: 1,
    end: false,
  },
  {
    name: 'Connection: close, then more requests',
    steps: [get('/kept', 'Connection: close\r\n') + get('/other') + get('/kept')],
    front: 1,
  },
  {
    name: 'Connection: keep-alive, Close (list, case)',
    steps: [get('/kept', 'Connection: keep-alive, Close\r\n')],
    front: 1,
  },
  { name: 'HTTP/1.0', steps: [`GET /kept HTTP/1.0\r\n${H}\r\n`], front: 0 },
  {
    name: 'HTTP/1.0 keep-alive',
    steps: [`GET /kept HTTP/1.0\r\n${H}Connection: keep-alive\r\n\r\n`],
    front: 0,
  },
  { name: 'absolute-form target', steps: ['GET http://x/kept HTTP/1.1\r\nHost: x\r\n\r\n'], front: 0 },
  { name: 'asterisk target', steps: [`GET * HTTP/1.1\r\n${H}\r\n`], front: 0 },
  { name: 'lowercase method', steps: [`get /kept HTTP/1.1\r\n${H}\r\n`], front: 0 },
  { name: 'POST to a kept URL', steps: [`POST /kept HTTP/1.1\r\n${H}Content-Length: 0\r\n\r\n`], front: 0 },
  { name: 'two Host headers', steps: [get('/kept', 'Host: y\r\n')], front: 0 },
  { name: 'no Host', steps: ['GET /kept HTTP/1.1\r\n\r\n'], front: 0 },
  { name: 'an empty Host', steps: ['GET /kept HTTP/1.1\r\nHost:\r\n\r\n'], front: 1 },
  { name: 'obs-fold', steps: [get('/kept', 'X-A: a\r\n b\r\n')], front: 0 },
  { name: 'obs-fold with a tab', steps: [get('/kept', 'X-A: a\r\n\tb\r\n')], front: 0 },
  { name: 'bare LF line endings', steps: ['GET /kept HTTP/1.1\nHost: x\n\n'], front: 0 },
  { name: 'bare LF then CRLF', steps: ['GET /kept HTTP/1.1\nHost: x\r\n\r\n'], front: 0 },
  {
    name: 'bare LF smuggling a second head',
    steps: [`GET /kept HTTP/1.1\r\n${H}X: y\n\nGET /admin HTTP/1.1\r\n${H}\r\n`],
    front: 0,
  },
  { name: 'bare CR in a header value', steps: [get('/kept', 'X-A: a\rb\r\n')], front: 0 },
  {
    name: 'bare LF smuggling a second head without a Host',
    steps: [`GET /kept HTTP/1.1\r\n${H}X: y\n\nGET /admin HTTP/1.1\r\nX-B: 1\r\n\r\n`],
    front: 0,
  },
  {
    name: 'bare LF hiding a Content-Length',
    steps: [`GET /kept HTTP/1.1\r\nHost: x\nContent-Length: 5\r\n\r\nhello`],
    front: 0,
  },
  { name: 'a CR before the CRLF', steps: [get('/kept', 'X-A: a\r\r\n')], front: 0 },
  { name: 'NUL in a header value', steps: [get('/kept', 'X-A: a\0b\r\n')], front: 0 },
  { name: 'control byte 0x01 in a header value', steps: [get('/kept', 'X-A: a\x01b\r\n')], front: 0 },
  { name: 'DEL in a header value', steps: [get('/kept', 'X-A: a\x7fb\r\n')], front: 0 },
  {
    name: 'obs-text (0x80-0xff) in a header value',
    steps: [Buffer.from(get('/kept', 'X-A: caf\xe9\r\n'), 'latin1')],
    front: 1,
  },
  { name: 'a tab inside a header value', steps: [get('/kept', 'X-A: a\tb \t\r\n')], front: 1 },
  { name: 'space before the colon', steps: [get('/kept', 'X-A : a\r\n')], front: 0 },
  { name: 'a header line without a colon', steps: [get('/kept', 'X-A\r\n')], front: 0 },
  { name: 'an empty header name', steps: [get('/kept', ': a\r\n')], front: 0 },
  {
    name: 'Transfer_Encoding (another header)',
    steps: [get('/kept', 'Transfer_Encoding: chunked\r\n')],
    front: 1,
  },
  { name: 'Content-Length: 0 on a GET', steps: [get('/kept', 'Content-Length: 0\r\n')], front: 0 },
  {
    name: 'smuggling by Content-Length',
    steps: [`GET /kept HTTP/1.1\r\n${H}Content-Length: 30\r\n\r\nGET /admin HTTP/1.1\r\n${H}\r\n`],
    front: 0,
  },
  {
    name: 'smuggling by Content-Length (exact length)',
    steps: [`GET /kept HTTP/1.1\r\n${H}Content-Length: 32\r\n\r\nGET /admin HTTP/1.1\r\n${H}\r\n`],
    front: 0,
  },
  {
    name: 'smuggling by Transfer-Encoding: chunked',
    steps: [
      `GET /kept HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n${H}\r\n`,
    ],
    front: 0,
  },
  {
    name: 'smuggling by Content-Length and Transfer-Encoding',
    steps: [
      `GET /kept HTTP/1.1\r\n${H}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n${H}\r\n`,
    ],
    front: 0,
  },
  {
    name: 'content-length in lower case',
    steps: [`${get('/kept', 'content-length: 5\r\n')}hello`],
    front: 0,
  },
  { name: 'TE: trailers', steps: [get('/kept', 'TE: trailers\r\n')], front: 0 },
  { name: 'Expect: 100-continue', steps: [get('/kept', 'Expect: 100-continue\r\n')], front: 0 },
  {
    name: 'Upgrade: websocket',
    steps: [get('/kept', 'Connection: Upgrade\r\nUpgrade: websocket\r\n')],
    front: 0,
  },
  { name: 'Upgrade without Connection: upgrade', steps: [get('/kept', 'Upgrade: websocket\r\n')], front: 0 },
  { name: 'Connection: upgrade alone', steps: [get('/kept', 'Connection: upgrade\r\n')], front: 0 },
  { name: 'HTTP/2 preface', steps: ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'], front: 0 },
  { name: 'leading CRLF before the request line', steps: [`\r\n${get('/kept')}`], front: 0 },
  { name: 'a CRLF between pipelined requests', steps: [`${get('/kept')}\r\n${get('/kept')}`], front: 1 },
  { name: 'two spaces in the request line', steps: [`GET  /kept HTTP/1.1\r\n${H}\r\n`], front: 0 },
  { name: 'a trailing space in the request line', steps: [`GET /kept HTTP/1.1 \r\n${H}\r\n`], front: 0 },
  { name: 'a fragment in the target', steps: [get('/kept#frag')], front: 0 },
  { name: 'a query with odd characters', steps: [get('/kept?a="<>{}|\\^`')], front: 1 },
  { name: 'a DEL in the target', steps: [get('/kept?\x7f')], front: 0 },
  { name: 'obs-text in the target', steps: [Buffer.from(get('/kept?\xe9'), 'latin1')], front: 0 },
  { name: 'percent-encoded path', steps: [get('/%6Bept')], front: 0 },
  { name: 'percent-encoded slash', steps: [get('/kept%2F..%2Fadmin')], front: 0 },
  { name: 'dot-dot segments', steps: [get('/x/../kept')], front: 0 },
  { name: 'dot-dot after the kept path', steps: [get('/kept/../admin')], front: 0 },
  { name: 'double slash', steps: [get('//kept')], front: 0 },
  {
    name: 'an oversized head (> 16 KB)',
    steps: [get('/kept', `X-Pad: ${'a'.repeat(17 * 1024)}\r\n`)],
    front: 0,
  },
  {
    name: 'an oversized head, not half-closed',
    steps: [get('/kept', `X-Pad: ${'a'.repeat(20 * 1024)}\r\n`)],
    front: 0,
    end: false,
  },
  {
    name: 'a kept answer, then idle until the keep-alive timeout',
    steps: [get('/kept')],
    front: 1,
    end: false,
    quietMs: 4000,
  },
  { name: 'async kept URL', steps: [get('/kept-async')], front: 1, end: false },
  { name: 'async kept URL, half-closed', steps: [get('/kept-async')], front: 1, asyncHalfClose: true },
  {
    name: 'async kept URL, then unkept, pipelined',
    steps: [get('/kept-async') + get('/other')],
    front: 1,
    end: false,
  },
  {
    name: 'async kept URL, then unkept, pipelined and half-closed',
    steps: [get('/kept-async') + get('/other')],
    front: 1,
    asyncHalfClose: true,
  },
  {
    name: 'async kept URL, then kept and unkept in a later write, half-closed',
    steps: [get('/kept-async'), 5, get('/kept') + get('/other')],
    front: 2,
    asyncHalfClose: true,
  },
  {
    name: 'async kept URL, then a partial head, half-closed',
    steps: [get('/kept-async'), 5, 'GET /kept HTTP/1.1\r\nHo'],
    front: 1,
    asyncHalfClose: true,
  },
  {
    name: 'unkept, then kept: node:http keeps the connection',
    steps: [get('/other') + get('/kept')],
    front: 0,
  },
];

describe('the front against node:http, byte for byte', () => {
  for (const c of corpus) it(c.name, () => differential(c).then(() => undefined));

  it('heads around node:http limit: the front never answers one node:http refuses', async () => {
    const fixed = get('/kept', 'X-Pad: \r\n').length;
    for (let size = 16 * 1024 - 40; size <= 16 * 1024 + 8; size += 4) {
      // The rule says it: an answer of the front must be the kept answer node:http sends (not its 431).
      const steps = [get('/kept', `X-Pad: ${'a'.repeat(size - fixed)}\r\n`)];
      await differential({ name: String(size), steps, front: undefined });
    }
  });

  it('a head that never completes: node:http times it out, the front does not answer first', async () => {
    const { a, b, ra } = await differential({
      name: 'idle',
      steps: ['GET /kept HTTP/1.1\r\nHost: x\r\n'],
      front: 0,
      end: false,
      quietMs: TIMEOUTS.headersTimeout + 2000,
    });
    expect(ra[0]).toMatch(/^HTTP\/1\.1 408 /);
    expect(b.firstByteMs).toBeGreaterThanOrEqual((a.firstByteMs as number) - 300);
  });

  it('a connection that sends nothing is treated as node:http treats it', async () => {
    // node:http answers 408 at its header timeout; the front hands a silent connection over at its keep-alive
    // timeout, after which node:http's header timeout runs: the same answer, later, never earlier.
    const quietMs = TIMEOUTS.keepAliveTimeout + TIMEOUTS.headersTimeout + 1000;
    const { a, b, ra } = await differential({ name: 'silent', steps: [], front: 0, end: false, quietMs });
    expect(ra[0]).toMatch(/^HTTP\/1\.1 408 /);
    expect(b.firstByteMs).toBeGreaterThanOrEqual((a.firstByteMs as number) - 300);
  });

  it('a client that resets right after sending does not disturb the server', async () => {
    for (const port of [ports.a, ports.b]) {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(get('/kept') + get('/other'));
      socket.resetAndDestroy();
    }
    // Whatever the servers make of those, before the next connection is counted.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(servers.every((server) => server.listening)).toBe(true);
    await differential({ name: 'after a reset', steps: [get('/kept')], front: 1 });
  });
});
