import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { orderRef } from '../payments/index.ts';
import type { NotifyResponse, NotifySend } from './sandbox.port.ts';
import type { OwedNotification, SandboxRepository } from './sandbox.repository.ts';
import { signedNotification } from './sandbox-signing.ts';

/** After the n-th failed attempt the next one waits RETRY_DELAYS_MS[n - 1]; then hourly, until acknowledged. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000] as const;
export const retryDelayMs = (failedAttempts: number) =>
  RETRY_DELAYS_MS[Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1] ?? 3_600_000;

const BATCH = 20;
// A claimed notification is not claimed again (by this or another process) for this long.
const LEASE_MS = 60_000;
const SEND_TIMEOUT_MS = 10_000;

export const httpSend: NotifySend = async ({ url, headers, body }) => {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  return { status: res.status, body: await res.text() };
};

const LOOPBACK_HOST = /^(?:localhost|127(?:\.[0-9]{1,3}){3}|\[::1\])$/i;

/**
 * Where an owed notification goes now. Its address was fixed when the order was made; by default that is the
 * address of the server process that made it, on loopback, and a restart may listen on another port (PORT changed,
 * or 0 in tests). An address on this machine's loopback is
 * therefore read as "our own server": it is sent to the server that runs now (`ownBase`, its address as it listens
 * now), same path. Any other address (PAY_NOTIFY_BASE, `keep`) is sent to as stored.
 */
export function currentNotifyUrl(stored: string, ownBase: string, keep?: string): string {
  if (keep && stored.startsWith(`${keep}/`)) return stored;
  let url: URL;
  try {
    url = new URL(stored);
  } catch {
    return stored;
  }
  if (!LOOPBACK_HOST.test(url.hostname)) return stored;
  return `${ownBase}${url.pathname}${url.search}`;
}

/** The sandbox's acknowledgement protocol: HTTP 200 and a JSON envelope with result true. */
export function isAcknowledged(res: NotifyResponse): boolean {
  if (res.status !== 200) return false;
  try {
    return (JSON.parse(res.body) as { result?: unknown }).result === true;
  } catch {
    return false;
  }
}

/** The sandbox gateway's side of notifications: sends what it owes the merchant, retrying until acknowledged. */
export function createSandboxNotifier(opts: {
  repo: SandboxRepository;
  keyOf: (merchantId: string) => Buffer | undefined;
  log: FastifyBaseLogger;
  send?: NotifySend;
  intervalMs?: number;
  /** The address to send a stored notify URL to now (currentNotifyUrl); as stored when not given. */
  resolveUrl?: (stored: string) => string;
}) {
  const { repo, log } = opts;

  async function deliver(payment: OwedNotification, send: NotifySend, now: Date): Promise<boolean> {
    const key = opts.keyOf(payment.merchantId);
    let response: NotifyResponse | undefined;
    let error: unknown;
    if (key) {
      try {
        response = await send({
          url: opts.resolveUrl ? opts.resolveUrl(payment.notifyUrl) : payment.notifyUrl,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: signedNotification(key, payment, now),
        });
      } catch (err) {
        error = err;
      }
    }
    if (response && isAcknowledged(response)) {
      await repo.acknowledged(payment.tradeNo, new Date());
      return true;
    }
    const failedAttempts = payment.attempts + 1;
    const retryAt = new Date(now.getTime() + retryDelayMs(failedAttempts));
    await repo.retryAt(payment.tradeNo, retryAt);
    log.warn(
      {
        sandbox: 'notify',
        tradeNo: payment.tradeNo,
        order: orderRef(payment.orderNo),
        attempt: failedAttempts,
        status: response?.status,
        answer: response?.body.slice(0, 200),
        err: error,
        noKey: key === undefined || undefined,
        retryAt,
      },
      'sandbox notification not acknowledged; will retry',
    );
    return false;
  }

  /** One pass: sends every notification that is due at `now`. Callable from tests with their own `send`. */
  async function deliverDueNotifications(send: NotifySend = opts.send ?? httpSend, now = new Date()) {
    const due = await repo.claimDue(now, new Date(now.getTime() + LEASE_MS), BATCH);
    const results = await Promise.all(due.map((p) => deliver(p, send, now)));
    const delivered = results.filter(Boolean).length;
    return { delivered, failed: results.length - delivered, more: due.length === BATCH };
  }

  const loop = backgroundLoop({
    name: 'sandbox-notifier',
    intervalMs: opts.intervalMs ?? 1_000,
    run: async () => (await deliverDueNotifications()).more,
    log,
  });

  return { deliverDueNotifications, loop, wake: loop.wake };
}

export type SandboxNotifier = ReturnType<typeof createSandboxNotifier>;
