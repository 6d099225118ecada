import type { Readable } from 'node:stream';

/**
 * The fast paths: answers the server knows before Fastify sees a request (kept static answers, images kept in
 * memory or in the store), sent from ready bytes. Two writers send them: the front (front.ts), which reads requests
 * straight off the connection, and the HTTP server's request listener (app.ts), for connections node:http took over.
 * Both send the same status, headers and body; each answer is counted and logged once (FastPathHooks).
 */

/** What a fast path reads of a request: a GET or HEAD without a body. */
export interface FastRequest {
  method: string;
  url: string;
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
}

/** An answer: its status, its headers (Content-Length included when there is a body) and its body. */
export interface FastAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The bytes of the body; absent for 304 and 204, or when it streams. */
  body?: Buffer;
  /** A body too large to keep in memory, read from the store as it is sent. */
  stream?: Readable;
  /** The status line and headers as sent on the wire, made once per answer and kept with it (rawHead()). */
  raw?: Buffer;
  /** The route the metrics count it under (KEPT_IMAGE_ROUTE); the static cache's when absent. */
  route?: string;
}

/**
 * How long a kept-alive connection may stay idle (node:http's default keepAliveTimeout, which the server keeps): the
 * front and node:http must close idle connections alike.
 */
export const KEEP_ALIVE_MS = 5000;

/** The route label of kept page images in the metrics (the static cache's answers carry none). */
export const KEPT_IMAGE_ROUTE = '(kept image)';

/**
 * A kept answer handed to a front process (front-copies.ts), which sends it itself until `until` (ms since the
 * epoch): the 200 and the 304 exactly as the owner would send them, and how If-None-Match is compared (images: the
 * weak comparison; static calls: the strong one).
 */
export interface KeptCopy {
  ok: FastAnswer;
  notModified: FastAnswer;
  etag: string;
  weakMatch: boolean;
  until: number;
}

/** The result of a fast path: an answer, undefined when it has none (Fastify or the primary answers), or later. */
export type FastResult = FastAnswer | undefined | Promise<FastAnswer | undefined>;
export type FastPath = (req: FastRequest) => FastResult;

/** What each answer sent by a fast path is told to (the metrics' counter, the access log). */
export interface FastPathHooks {
  /**
   * One answer written: `startedAt` is performance.now() when its request was read; `requestId` the
   * X-Request-Id header the request carried, if any; `remoteAddress` and `remotePort` the connection's peer,
   * `forwardedFor` its X-Forwarded-For header, `host` its Host header.
   */
  answered(entry: FastLogEntry): void;
}

export interface FastLogEntry {
  method: string;
  url: string;
  status: number;
  route: string | undefined;
  startedAt: number;
  requestId: string | undefined;
  host: string | undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  forwardedFor: string | undefined;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

/** Header names and values the fast paths send come from our own code; none may break the head. */
const UNSAFE = /[\r\n\0]/;

/** The status line and headers, CRLF each, without Date and Connection (added per answer): kept on the answer. */
export function rawHead(answer: FastAnswer): Buffer {
  if (answer.raw) return answer.raw;
  let head = `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'Unknown'}\r\n`;
  for (const [name, value] of Object.entries(answer.headers)) {
    if (UNSAFE.test(name) || UNSAFE.test(value)) throw new Error(`header ${name} cannot be sent`);
    head += `${name}: ${value}\r\n`;
  }
  answer.raw = Buffer.from(head, 'latin1');
  return answer.raw;
}

/**
 * The end of every head: Date (as node:http sends it, made once a second), then the connection's fate. node:http
 * says `Keep-Alive: timeout=<seconds>` on kept connections; the front says the same.
 */
export class HeadTail {
  private second = -1;
  private keep = Buffer.alloc(0);
  private close = Buffer.alloc(0);

  constructor(private readonly keepAliveSeconds: number) {}

  get(keepAlive: boolean): Buffer {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      const date = `Date: ${new Date(second * 1000).toUTCString()}\r\n`;
      this.keep = Buffer.from(
        `${date}Connection: keep-alive\r\nKeep-Alive: timeout=${this.keepAliveSeconds}\r\n\r\n`,
        'latin1',
      );
      this.close = Buffer.from(`${date}Connection: close\r\n\r\n`, 'latin1');
    }
    return keepAlive ? this.keep : this.close;
  }
}

/** True for a promise (a fast path that has to wait for its answer). */
export const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof (value as Promise<T> | undefined)?.then === 'function';
