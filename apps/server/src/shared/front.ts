import type { Server, Socket } from 'node:net';
import {
  type FastAnswer,
  type FastPath,
  type FastPathHooks,
  type FastRequest,
  HeadTail,
  isPromise,
  rawHead,
} from './fast-path.ts';

/**
 * The front: reads requests straight off each new connection and answers the ones a fast path knows (kept static
 * answers, kept images) from ready bytes: one parse of the head, one write. node:http's parser, its
 * IncomingMessage and ServerResponse cost more than such an answer (bench/README.md).
 *
 * It reads only what it is sure of: a complete head of `GET` or `HEAD`, origin-form target, `HTTP/1.1`, well-formed
 * header lines, a Host, and nothing that announces a body or another protocol (Content-Length, Transfer-Encoding,
 * Expect, Upgrade). At the first request it does not answer (anything else, a head not complete in what has
 * arrived, a fast path without an answer) it hands the connection, from that request's first byte, to node:http,
 * which parses it with its own strict parser and keeps it to the end: the front never reads a byte node:http
 * reads, so the two can never disagree about where a request ends.
 */

export interface FrontOptions {
  /** The fast paths, in order. */
  answer: FastPath;
  hooks: FastPathHooks;
  /** Idle time after which a kept-alive connection is closed (node:http's keepAliveTimeout). */
  keepAliveMs: number;
  /** A head longer than this is node:http's (which refuses it with 431 beyond its own limit). */
  maxHeadBytes?: number;
  /**
   * Who takes a connection the front does not answer, from the first byte of `rest` on (bytes still in the socket
   * follow). Default: node:http's own connection listener on the same server. A front process (front-process.ts)
   * passes it to the process that owns the database instead.
   */
  handOver?: (socket: Socket, rest: Buffer | null) => void;
}

export interface Front {
  /** Shutdown: idle connections close now, busy ones after their answer (which says `Connection: close`). */
  drain(): void;
  /** The drain begins: every answer from now on says `Connection: close`; nothing is closed yet. */
  stopKeepAlive(): void;
  /** Connections the front holds now (not yet handed to node:http). */
  readonly size: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const REQUEST_LINE = /^(GET|HEAD) (\/[!-~]*) HTTP\/1\.1$/;
/** A header line: a token, a colon, a value of visible characters, spaces and tabs. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/;
/** Headers whose presence means the request is not one the front reads. */
const NOT_OURS = new Set(['content-length', 'transfer-encoding', 'expect', 'upgrade', 'te']);
/** Written data a connection may queue before the front stops reading from it (a client that does not read). */
const MAX_QUEUED_BYTES = 1 << 20;

/** The client's end was read into the socket's stream (not necessarily emitted yet): Readable's own flag. */
const eofRead = (socket: Socket) =>
  (socket as unknown as { _readableState?: { ended?: boolean } })._readableState?.ended === true;

/** A request the front read: what the fast paths use, and what the log keeps. */
interface ReadRequest extends FastRequest {
  close: boolean;
  host: string | undefined;
  requestId: string | undefined;
  forwardedFor: string | undefined;
}

/** Parses the head in `head` (without its final CRLFCRLF); undefined when it is not a request the front reads. */
export function readHead(head: string): ReadRequest | undefined {
  const lines = head.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0] as string);
  if (!requestLine) return undefined;
  const req: ReadRequest = {
    method: requestLine[1] as string,
    url: requestLine[2] as string,
    ifNoneMatch: undefined,
    acceptEncoding: undefined,
    close: false,
    host: undefined,
    requestId: undefined,
    forwardedFor: undefined,
  };
  for (let i = 1; i < lines.length; i++) {
    const header = HEADER_LINE.exec(lines[i] as string);
    // A bare CR or LF, an empty or odd name, a folded line: node:http decides what that is.
    if (!header) return undefined;
    const name = (header[1] as string).toLowerCase();
    const value = header[2] as string;
    if (NOT_OURS.has(name)) return undefined;
    switch (name) {
      case 'host':
        if (req.host !== undefined) return undefined;
        req.host = value;
        break;
      case 'connection': {
        const tokens = value.toLowerCase().split(',');
        for (const t of tokens) {
          const token = t.trim();
          if (token === 'close') req.close = true;
          else if (token === 'upgrade') return undefined;
        }
        break;
      }
      case 'if-none-match':
        req.ifNoneMatch = req.ifNoneMatch === undefined ? value : `${req.ifNoneMatch}, ${value}`;
        break;
      case 'accept-encoding':
        req.acceptEncoding = req.acceptEncoding === undefined ? value : `${req.acceptEncoding}, ${value}`;
        break;
      case 'x-request-id':
        req.requestId = value;
        break;
      case 'x-forwarded-for':
        req.forwardedFor = req.forwardedFor === undefined ? value : `${req.forwardedFor}, ${value}`;
        break;
    }
  }
  // HTTP/1.1 requires a Host; node:http answers 400 without one.
  return req.host === undefined ? undefined : req;
}

/** Whole answers on the wire (head, Date/Connection tail, body), per answer and tail: rebuilt when the tail changes. */
const wires = new WeakMap<FastAnswer, { tail: Buffer; wire: Buffer }[]>();
function wireOf(answer: FastAnswer, tail: Buffer): Buffer {
  let made = wires.get(answer);
  if (!made) {
    made = [];
    wires.set(answer, made);
  }
  const found = made.find((m) => m.tail === tail);
  if (found) return found.wire;
  const wire = Buffer.concat(answer.body ? [rawHead(answer), tail, answer.body] : [rawHead(answer), tail]);
  // At most the keep-alive and the close tail of this second.
  if (made.length >= 2) made.shift();
  made.push({ tail, wire });
  return wire;
}

/**
 * Puts the front before node:http on `server`: every new connection is read by the front first. Call it once
 * node:http's own connection listener is on the server (right after createServer), or on a bare net server with
 * `handOver` (created with allowHalfOpen, as node:http's is: a client's half-close must not end our side).
 */
export function installFront(server: Server, opts: FrontOptions): Front {
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const maxHead = opts.maxHeadBytes ?? 16 * 1024;
  // node:http says `Keep-Alive: timeout=<floor(ms / 1000)>`, and `, max=<n>` and a close after n requests when
  // maxRequestsPerSocket is set, which the front does not count: such a server is not the front's.
  if ((server as { maxRequestsPerSocket?: number | null }).maxRequestsPerSocket)
    throw new Error('installFront: maxRequestsPerSocket is not supported');
  const tail = new HeadTail(Math.floor(opts.keepAliveMs / 1000));
  const connections = new Set<FrontConnection>();
  let draining = false;

  class FrontConnection {
    /** Bytes read and not yet answered or handed over. */
    private pending: Buffer | null = null;
    /**
     * A fast path is finding this connection's current answer, or a streamed body is being written. The socket is
     * paused meanwhile (setBusy): what the client sends next waits in the socket (its end does not: see handOver).
     */
    private busy = false;
    private ended = false;
    private done = false;
    /** At least one answer was sent: idle now means an idle kept-alive connection, which node:http closes. */
    private answered = false;
    /** A handover waits for the client's end to come out of the socket (see handOver). */
    private awaitingEnd = false;

    constructor(private readonly socket: Socket) {
      connections.add(this);
      socket.setNoDelay(true);
      socket.setTimeout(opts.keepAliveMs);
      socket.on('data', this.onData);
      socket.on('end', this.onEnd);
      socket.on('timeout', this.onTimeout);
      socket.on('error', this.onError);
      socket.on('close', this.onClose);
      socket.on('drain', this.onDrain);
    }

    get idle() {
      return !this.busy && this.pending === null;
    }

    private readonly onData = (chunk: Buffer) => {
      this.pending = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
      if (!this.busy && !this.awaitingEnd) this.run();
    };

    private readonly onEnd = () => {
      this.ended = true;
      if (this.awaitingEnd) this.handOver();
      else if (!this.busy) this.finish();
    };

    private readonly onTimeout = () => {
      // A fast path still looking for an answer is not idle.
      if (this.busy) return;
      // Idle past the keep-alive time after an answer: node:http closes such a connection too, without a word.
      if (this.answered) this.socket.destroy();
      // Nothing asked yet: node:http's header timeout (its 408) is the rule for that, so node:http takes it.
      else this.handOver();
    };

    private readonly onError = () => {
      // A reset by the client: 'close' follows.
    };

    private readonly onClose = () => {
      this.done = true;
      connections.delete(this);
    };

    private readonly onDrain = () => {
      // The client reads its answers again: read its requests again (unless a fast path is busy; it resumes).
      if (this.socket.isPaused() && !this.done && !this.busy && !this.awaitingEnd) {
        this.socket.resume();
        this.run();
      }
    };

    private setBusy(busy: boolean) {
      this.busy = busy;
      if (busy) this.socket.pause();
      else if (!this.done) this.socket.resume();
    }

    /** Answers every complete request in `pending`, in order, until one needs node:http or has to wait. */
    run() {
      while (this.pending !== null && !this.done) {
        const buf = this.pending;
        if (this.socket.writableLength > MAX_QUEUED_BYTES) {
          // The client does not read its answers: stop reading its requests until it does ('drain').
          this.socket.pause();
          return;
        }
        const end = buf.indexOf(CRLF2);
        if (end === -1) {
          // A head not complete in what has arrived: node:http (and its header timeout) takes it from here.
          return this.handOver();
        }
        if (end > maxHead) return this.handOver();
        const req = readHead(buf.toString('latin1', 0, end));
        if (!req) return this.handOver();
        const startedAt = performance.now();
        const result = opts.answer(req);
        if (result === undefined) return this.handOver();
        if (!isPromise(result)) {
          this.pending = buf.length > end + 4 ? buf.subarray(end + 4) : null;
          if (!this.send(req, result, startedAt)) return;
          continue;
        }
        // `pending` keeps this request's head until the answer comes: without one, node:http reads it.
        this.setBusy(true);
        result.then(
          (answer) => this.resume(req, answer, end + 4, startedAt),
          () => this.resume(req, undefined, end + 4, startedAt),
        );
        return;
      }
      if (this.ended && this.pending === null) this.finish();
    }

    /** A fast path answered later: send it, or hand the request (the first `headBytes` of `pending`) over. */
    private resume(req: ReadRequest, answer: FastAnswer | undefined, headBytes: number, startedAt: number) {
      this.setBusy(false);
      if (this.done) {
        answer?.stream?.destroy();
        return;
      }
      if (!answer) return this.handOver();
      // Bytes that arrived meanwhile were appended to `pending`, after this request's head.
      const pending = this.pending as Buffer;
      this.pending = pending.length > headBytes ? pending.subarray(headBytes) : null;
      if (this.send(req, answer, startedAt)) this.run();
    }

    /** Writes one answer; false when the connection ends with it or a streamed body is still being written. */
    private send(req: ReadRequest, answer: FastAnswer, startedAt: number): boolean {
      const socket = this.socket;
      const keepAlive = !req.close && !draining;
      const end = tail.get(keepAlive);
      const withBody = req.method !== 'HEAD';
      if (withBody && !answer.stream) {
        // One write of head, tail and body joined once per answer and tail (a new tail each second).
        socket.write(wireOf(answer, end));
      } else {
        socket.cork();
        socket.write(rawHead(answer));
        socket.write(end);
        socket.uncork();
      }
      const entry = (status: number) => ({
        method: req.method,
        url: req.url,
        status,
        route: answer.route,
        startedAt,
        requestId: req.requestId,
        host: req.host,
        remoteAddress: socket.remoteAddress,
        remotePort: socket.remotePort,
        forwardedFor: req.forwardedFor,
      });
      const stream = answer.stream;
      if (stream && withBody) {
        this.setBusy(true);
        stream.on('error', () => socket.destroy());
        stream.once('end', () => {
          this.setBusy(false);
          this.answered = true;
          opts.hooks.answered(entry(answer.status));
          if (!keepAlive) return this.close();
          this.run();
        });
        stream.pipe(socket, { end: false });
        return false;
      }
      stream?.destroy();
      this.answered = true;
      opts.hooks.answered(entry(answer.status));
      if (!keepAlive) {
        this.close();
        return false;
      }
      return true;
    }

    /** The answer said `Connection: close`: nothing after it is read. */
    private close() {
      this.pending = null;
      this.done = true;
      connections.delete(this);
      this.socket.end();
    }

    /** The client ended its side: end ours once everything it asked is answered. */
    private finish() {
      if (this.done) return;
      this.done = true;
      connections.delete(this);
      this.socket.end();
    }

    /** node:http takes the connection from the first byte of `pending` (what the front has not answered). */
    private handOver() {
      const socket = this.socket;
      if (!this.ended && eofRead(socket)) {
        // The client's end is in the socket, behind bytes not emitted yet: node:http would see it as soon as it
        // resumes the socket (it does, to read a request), before its handler had a turn. Let it come out to the
        // front first (onEnd calls handOver again), with whatever precedes it appended to `pending`.
        this.awaitingEnd = true;
        socket.resume();
        return;
      }
      const rest = this.pending;
      this.pending = null;
      this.done = true;
      connections.delete(this);
      socket.removeListener('data', this.onData);
      socket.removeListener('end', this.onEnd);
      socket.removeListener('timeout', this.onTimeout);
      socket.removeListener('error', this.onError);
      socket.removeListener('close', this.onClose);
      socket.removeListener('drain', this.onDrain);
      socket.setTimeout(0);
      if (socket.destroyed) return;
      socket.pause();
      if (opts.handOver) {
        // Another process takes the descriptor. A paused socket may still hold bytes it read before pausing: they go
        // with `rest`. Then the descriptor stops reading, so nothing more is read here (the kernel keeps it for the
        // other process, the client's end included: a read after it finds it again).
        const parts = rest ? [rest] : [];
        for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read())
          parts.push(chunk);
        (socket as unknown as { _handle?: { readStop?(): void } })._handle?.readStop?.();
        opts.handOver(socket, parts.length > 0 ? Buffer.concat(parts) : null);
        return;
      }
      if (this.ended) {
        // The client half-closed and the socket has emitted its end (to the front); it takes no unshift now.
        // Without the front, node:http reads an end in a later read than the bytes before it, after its handler
        // had that turn (a handler that answers at once is heard; one that answers later is not: node:http ends
        // the connection). So node:http gets `rest` now and the end replayed a turn later. No byte can follow an
        // end: nothing can pass `rest`.
        for (const listener of httpListeners) listener.call(server, socket);
        if (rest) socket.emit('data', rest);
        setImmediate(() => {
          if (!socket.destroyed) socket.emit('end');
        });
        return;
      }
      // Bytes that arrive meanwhile wait in the socket until node:http's parser reads them, after `rest`: resume()
      // flows what waits in the socket on the next tick, before any further read (node:http may read the next
      // ones itself, straight from the handle, without passing them through the socket's stream).
      for (const listener of httpListeners) listener.call(server, socket);
      if (rest) socket.unshift(rest);
      socket.resume();
    }

    /** Shutdown: an idle connection closes now; a busy one after its answer. */
    drain() {
      if (this.idle) {
        this.done = true;
        connections.delete(this);
        this.socket.destroy();
      }
    }
  }

  server.on('connection', (socket: Socket) => new FrontConnection(socket));
  return {
    stopKeepAlive() {
      draining = true;
    },
    drain() {
      draining = true;
      for (const connection of [...connections]) connection.drain();
    },
    get size() {
      return connections.size;
    },
  };
}
