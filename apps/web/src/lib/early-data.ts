import type { DataOf, RouteSpec } from '@yueman/contract';
import { type CallArgs, data, type Envelope, routePath } from './api-client.ts';

declare global {
  interface Window {
    /** The landing screen's first call, from the page or started by index.html before the scripts loaded. */
    __YM_EARLY__?: {
      path: string;
      /** The answer the server wrote into the page (#ym-first-data), when it did. */
      body?: Envelope<unknown> | null;
      answer: Promise<Envelope<unknown>>;
    };
    /** Set when index.html painted the landing screen: settles once its picture is painted (500 ms at most). */
    __YM_FIRST_PAINT__?: Promise<void>;
  }
}

/** The data of that early call if it was for `path` and succeeded, once; otherwise undefined. */
async function takeEarly(path: string): Promise<unknown> {
  const early = window.__YM_EARLY__;
  if (!early || early.path !== path) return undefined;
  window.__YM_EARLY__ = undefined;
  const body = await early.answer.catch(() => undefined);
  return body?.result ? body.data : undefined;
}

/**
 * The answer of the landing call for this route if the server wrote it into the page and it succeeded, at once,
 * whole (the reader acts on the envelope). Taken once, as the answer is.
 */
export function earlyAnswerNow<R extends RouteSpec>(
  route: R,
  ...args: CallArgs<R>
): Envelope<DataOf<R>> | undefined {
  const early = window.__YM_EARLY__;
  const path = routePath(route, args[0] as Parameters<typeof routePath>[1]);
  if (!early?.body?.result || early.path !== path) return undefined;
  window.__YM_EARLY__ = undefined;
  return early.body as Envelope<DataOf<R>>;
}

/**
 * The data of that answer: the screen's first frame then has its content (a query's initialData). Taken once.
 */
export function earlyDataNow<R extends RouteSpec>(route: R, ...args: CallArgs<R>): DataOf<R> | undefined {
  const answer = earlyAnswerNow(route, ...args);
  return answer?.result ? answer.data : undefined;
}

/**
 * A landing screen's static call: the answer index.html already started for this very path when there is one,
 * else the call itself.
 */
export async function earlyData<R extends RouteSpec>(route: R, ...args: CallArgs<R>): Promise<DataOf<R>> {
  const early = await takeEarly(routePath(route, args[0] as Parameters<typeof routePath>[1]));
  return (early as DataOf<R> | undefined) ?? data(route, ...args);
}
