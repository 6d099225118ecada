import type { CampaignInput, CampaignKind, ConsoleCampaign } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import type { AuditEntry } from '../operators/index.ts';
import {
  type CampaignChange,
  type CampaignRow,
  type CampaignsRepository,
  endedNow,
} from './campaigns.repository.ts';
import {
  campaignBookNotFound,
  campaignChaptersInvalid,
  campaignDiscountInvalid,
  campaignNotFound,
  campaignWindowInvalid,
} from './wallet.errors.ts';

export interface CampaignsConsoleDeps {
  repo: CampaignsRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  /** Now, as the service checks windows (tests may move it; the database decides what is live by its own now()). */
  now?: () => Date;
}

type Actor = Pick<AuditEntry, 'operatorId' | 'actor'>;

/** The longest window a campaign may have: a year. */
const MAX_WINDOW_MS = 366 * 24 * 3600 * 1000;

const stateOf = (c: CampaignRow, now: Date): ConsoleCampaign['state'] =>
  c.endsAt <= now ? 'ended' : c.startsAt > now ? 'upcoming' : 'live';

const campaignOf = (c: CampaignRow, now: Date): ConsoleCampaign => ({
  id: c.id,
  kind: c.kind as CampaignKind,
  title: c.title,
  bookId: c.bookId,
  bookTitle: c.bookTitle,
  chapterIds: c.chapterIds,
  branchId: c.branchId,
  discountPercent: c.discountPercent,
  startsAt: c.startsAt.toISOString(),
  endsAt: c.endsAt.toISOString(),
  state: stateOf(c, now),
  updatedAt: c.updatedAt.toISOString(),
});

/** What the audit log keeps of a campaign: what the console shows, instants as text. */
const auditOf = (c: CampaignRow) => {
  const { id: _id, state: _state, updatedAt: _updated, ...rest } = campaignOf(c, new Date(0));
  return rest;
};

/**
 * The form checked beyond its types: a window in order, not over before it starts, at most a year; a percent for a
 * discount and none for limited-free; the book there and every chapter named one of its own.
 */
async function changeOf(
  deps: CampaignsConsoleDeps,
  kind: CampaignKind,
  input: CampaignInput,
): Promise<CampaignChange> {
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  const now = deps.now?.() ?? new Date();
  if (endsAt <= startsAt) throw campaignWindowInvalid('结束时间须晚于开始时间');
  if (endsAt <= now) throw campaignWindowInvalid('结束时间已过');
  if (endsAt.getTime() - startsAt.getTime() > MAX_WINDOW_MS) throw campaignWindowInvalid('活动最长一年');
  if (kind === 'discount' && input.discountPercent === null) throw campaignDiscountInvalid('请填写折扣');
  if (kind === 'limited_free' && input.discountPercent !== null)
    throw campaignDiscountInvalid('限免活动不设折扣');
  const chapterIds = input.chapterIds === null ? null : [...new Set(input.chapterIds)].sort((a, b) => a - b);
  const found = await deps.repo.bookChapters(input.bookId, chapterIds ?? []);
  if (!found) throw campaignBookNotFound();
  if (chapterIds?.some((id) => !found.has(id))) throw campaignChaptersInvalid();
  return {
    kind,
    title: input.title.trim(),
    bookId: input.bookId,
    chapterIds,
    branchId: input.branchId,
    discountPercent: input.discountPercent,
    startsAt,
    endsAt,
  };
}

const audited =
  (deps: CampaignsConsoleDeps, by: Actor, action: string) =>
  (tx: Queryable, before: CampaignRow | null, after: CampaignRow) =>
    deps.audit(tx, {
      ...by,
      action,
      target: `campaign:${after.id}`,
      before: before && auditOf(before),
      after: auditOf(after),
    });

export async function campaigns(
  deps: CampaignsConsoleDeps,
  q: { page: number; size: number; bookId?: number },
) {
  const { limit, offset } = consoleWindow(q);
  const { rows, total } = await deps.repo.page({ bookId: q.bookId, limit, offset });
  const now = deps.now?.() ?? new Date();
  return { page: q.page, size: q.size, total, list: rows.map((c) => campaignOf(c, now)) };
}

export async function addCampaign(
  deps: CampaignsConsoleDeps,
  input: CampaignInput & { kind: CampaignKind; by: Actor },
) {
  const change = await changeOf(deps, input.kind, input);
  const added = await deps.repo.create(change, audited(deps, input.by, 'campaign.add'));
  return campaignOf(added, deps.now?.() ?? new Date());
}

export async function editCampaign(
  deps: CampaignsConsoleDeps,
  input: CampaignInput & { id: number; by: Actor },
) {
  // The form is checked against the campaign's kind (which never changes) before the transaction: its lookups must
  // not wait on the connection the transaction holds (PGlite has one).
  const found = await deps.repo.find(input.id);
  if (!found) throw campaignNotFound();
  const { kind: _kind, ...change } = await changeOf(deps, found.kind as CampaignKind, input);
  const done = await deps.repo.edit(input.id, async () => change, audited(deps, input.by, 'campaign.edit'));
  if (!done) throw campaignNotFound();
  return campaignOf(done.after, deps.now?.() ?? new Date());
}

/** Ends the campaign now: its end moves to now (its start too, when it had not started). An ended one stays as it is. */
export async function endCampaign(deps: CampaignsConsoleDeps, input: { id: number; by: Actor }) {
  const done = await deps.repo.edit(
    input.id,
    async (before) => (before.endsAt <= (deps.now?.() ?? new Date()) ? null : endedNow),
    audited(deps, input.by, 'campaign.end'),
  );
  if (!done) throw campaignNotFound();
  return campaignOf(done.after, deps.now?.() ?? new Date());
}
