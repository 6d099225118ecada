import type { ChannelInput, ConsoleChannel, ConsolePack, PackInput } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { ChannelRow, PackChange, PackRow, PacksConsoleRepository } from './packs.console.repository.ts';
import { offerWindowInvalid, packNotFound, payChannelNotFound, vipPackWithBonus } from './payments.errors.ts';

export interface PacksConsoleDeps {
  repo: PacksConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
}

type Actor = Pick<AuditEntry, 'operatorId' | 'actor'>;

const packOf = (p: PackRow): ConsolePack => ({
  id: p.id,
  type: p.type as ConsolePack['type'],
  amountLevel: p.amountLevel,
  itemCount: p.itemCount,
  presentCount: p.presentCount,
  title: p.title,
  configDesc: p.configDesc,
  isDefault: p.isDefault,
  isRecommend: p.isRecommend,
  initiatorCode: p.initiatorCode,
  sort: p.sort,
  active: p.active,
  firstPayBonus: p.firstPayBonus,
  firstPayStartsAt: p.firstPayStartsAt?.toISOString() ?? null,
  firstPayEndsAt: p.firstPayEndsAt?.toISOString() ?? null,
});

const channelOf = (c: ChannelRow): ConsoleChannel => ({
  subTypeCode: c.subTypeCode,
  superiorCode: c.superiorCode,
  subTypeDesc: c.subTypeDesc,
  initiatorCode: c.initiatorCode,
  discountPercent: c.discountPercent,
  appTypes: c.appTypes,
  gateway: c.gateway,
  sort: c.sort,
  active: c.active,
});

/** What the audit log keeps of a pack: its fields as the console shows them (instants as text). */
const packAudit = (p: PackRow) => {
  const { id: _id, ...rest } = packOf(p);
  return rest;
};
const channelAudit = (c: ChannelRow) => ({
  active: c.active,
  discountPercent: c.discountPercent,
  initiatorCode: c.initiatorCode,
  sort: c.sort,
});

/**
 * The form's fields checked beyond their types: the offer's window whole and in order; no bonus on VIP or monthly
 * card packs (their itemCount is days).
 */
function changeOf(type: string, input: PackInput): PackChange {
  const starts = input.firstPayStartsAt === null ? null : new Date(input.firstPayStartsAt);
  const ends = input.firstPayEndsAt === null ? null : new Date(input.firstPayEndsAt);
  if ((starts === null) !== (ends === null) || (starts && ends && ends <= starts)) throw offerWindowInvalid();
  if (input.firstPayBonus > 0 && starts === null) throw offerWindowInvalid();
  if (type !== 'coin' && input.presentCount > 0) throw vipPackWithBonus();
  return {
    amountLevel: input.amountLevel,
    itemCount: input.itemCount,
    presentCount: input.presentCount,
    title: input.title.trim(),
    configDesc: input.configDesc.trim(),
    isRecommend: input.isRecommend,
    initiatorCode: input.initiatorCode,
    sort: input.sort,
    active: input.active,
    firstPayBonus: input.firstPayBonus,
    firstPayStartsAt: starts,
    firstPayEndsAt: ends,
  };
}

export async function packsAndChannels(deps: PacksConsoleDeps) {
  const { packs, channels } = await deps.repo.all();
  return { packs: packs.map(packOf), channels: channels.map(channelOf) };
}

/** A new pack: offered from the next recharge centre on. */
export async function addPack(
  deps: PacksConsoleDeps,
  input: PackInput & { type: 'coin' | 'vip' | 'card'; by: Actor },
) {
  const change = changeOf(input.type, input);
  const added = await deps.repo.addPack({ ...change, type: input.type }, (tx, after) =>
    deps.audit(tx, {
      ...input.by,
      action: 'pack.add',
      target: `pack:${after.id}`,
      before: null,
      after: packAudit(after),
    }),
  );
  return packOf(added);
}

/**
 * A pack's change, for new orders only: an order made before keeps its own amount, coins, bonus and days (they are
 * copied into pay_orders), and its notification is checked against that amount.
 */
export async function editPack(deps: PacksConsoleDeps, input: PackInput & { id: number; by: Actor }) {
  const done = await deps.repo.editPack(
    input.id,
    // The type is the pack's own (checked inside: a VIP or card pack keeps no bonus).
    changeOf('coin', input),
    (tx, before, after) => {
      if (before.type !== 'coin' && after.presentCount > 0) throw vipPackWithBonus();
      return deps.audit(tx, {
        ...input.by,
        action: 'pack.edit',
        target: `pack:${input.id}`,
        before: packAudit(before),
        after: packAudit(after),
      });
    },
  );
  if (!done) throw packNotFound();
  return packOf(done.after);
}

export async function editChannel(deps: PacksConsoleDeps, input: ChannelInput & { code: string; by: Actor }) {
  const done = await deps.repo.editChannel(
    input.code,
    {
      active: input.active,
      discountPercent: input.discountPercent,
      initiatorCode: input.initiatorCode,
      sort: input.sort,
    },
    (tx, before, after) =>
      deps.audit(tx, {
        ...input.by,
        action: 'pay-channel.edit',
        target: `pay-channel:${input.code}`,
        before: channelAudit(before),
        after: channelAudit(after),
      }),
  );
  if (!done) throw payChannelNotFound();
  return channelOf(done.after);
}
