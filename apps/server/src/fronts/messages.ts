import type { FastAnswer, FastRequest, KeptCopy } from '../shared/fast-path.ts';

/**
 * What front processes and the owner say over the cluster's IPC channel (advanced serialization: Buffers pass
 * as bytes). Every message carries `yueman`, so the cluster's own messages are never taken for ours.
 */
export type FrontMessage =
  /** Front → owner: may I have a copy of this GET's answer? */
  | { yueman: 'ask'; id: number; req: FastRequest }
  /** Front → owner, with the connection's handle: yours from the first byte of `rest` on. */
  | { yueman: 'connection'; rest: Uint8Array | null }
  /** Front → owner: answers sent since the last report, per method, status and route (for /metrics). */
  | { yueman: 'counts'; rows: [method: string, status: number, route: string | undefined, count: number][] };

/**
 * Owner → front: the copy asked for under `id`, or null (the owner answers that URL itself); or forget every copy (an
 * operator changed the catalogue: readers see it at once on this server).
 */
export type OwnerMessage = { yueman: 'copy'; id: number; copy: KeptCopy | null } | { yueman: 'forget' };

export const isFrontMessage = (m: unknown): m is FrontMessage =>
  typeof m === 'object' && m !== null && typeof (m as { yueman?: unknown }).yueman === 'string';

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A FastAnswer as it crossed the channel (sent without its head: sendableCopy): bytes back to Buffers. */
const reviveAnswer = (answer: FastAnswer): FastAnswer =>
  answer.body ? { ...answer, body: asBuffer(answer.body) } : answer;

export function reviveCopy(copy: KeptCopy | null): KeptCopy | undefined {
  if (!copy) return undefined;
  return { ...copy, ok: reviveAnswer(copy.ok), notModified: reviveAnswer(copy.notModified) };
}

export function reviveRest(rest: Uint8Array | null): Buffer | null {
  return rest ? asBuffer(rest) : null;
}

/** For the channel: a FastAnswer without its cached head (the front builds its own). */
export function sendableCopy(copy: KeptCopy): KeptCopy {
  const strip = ({ raw: _raw, ...answer }: FastAnswer): FastAnswer => answer;
  return { ...copy, ok: strip(copy.ok), notModified: strip(copy.notModified) };
}
