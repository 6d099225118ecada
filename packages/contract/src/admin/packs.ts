// The console's packs and channels: what the recharge centre sells and
// through which channels, with the first-recharge offer. A change applies to new orders only: an order keeps the
// amount, coins, bonus and days it was made with.
import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, Instant, Nullable } from './common.ts';

const PackType = Type.Union([Type.Literal('coin'), Type.Literal('vip'), Type.Literal('card')]);
/** A promotion branch's code, as pay_configs.initiatorCode and pay_channels.initiatorCode keep it ('default'). */
const InitiatorCode = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' });

export const ConsolePack = Type.Object({
  id: Type.Integer(),
  type: PackType,
  /** Price in cents. */
  amountLevel: Type.Integer(),
  /** Coins, or VIP days, or the monthly card's days. */
  itemCount: Type.Integer(),
  /** Bonus coins (coin packs; 0 on VIP and card packs). */
  presentCount: Type.Integer(),
  title: Type.String(),
  configDesc: Type.String(),
  isDefault: Type.Boolean(),
  isRecommend: Type.Boolean(),
  initiatorCode: Type.String(),
  sort: Type.Integer(),
  active: Type.Boolean(),
  /** The first-recharge offer: extra coins on a reader's first paid order of this pack (0: none). */
  firstPayBonus: Type.Integer(),
  firstPayStartsAt: Nullable(Instant),
  firstPayEndsAt: Nullable(Instant),
});
export type ConsolePack = Static<typeof ConsolePack>;

export const ConsoleChannel = Type.Object({
  subTypeCode: Type.String(),
  superiorCode: Type.String(),
  subTypeDesc: Type.String(),
  initiatorCode: Type.String(),
  /** Percent of the price the payer pays: 95 shows as 9.5折, 100 is no discount. */
  discountPercent: Type.Integer(),
  appTypes: Type.Array(Type.String()),
  gateway: Type.String(),
  sort: Type.Integer(),
  active: Type.Boolean(),
});
export type ConsoleChannel = Static<typeof ConsoleChannel>;

const Cents = Type.Integer({ minimum: 1, maximum: 10_000_000 });
const Count = Type.Integer({ minimum: 0, maximum: 10_000_000 });
const Sort = Type.Integer({ minimum: 0, maximum: 10_000 });

/** A pack as the console sends it: everything but its id and type (a pack does not change kind). */
export const PackInput = Type.Object({
  amountLevel: Cents,
  itemCount: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
  presentCount: Count,
  title: Type.String({ minLength: 1, maxLength: 40 }),
  configDesc: Type.String({ maxLength: 100 }),
  isRecommend: Type.Boolean(),
  initiatorCode: InitiatorCode,
  sort: Sort,
  active: Type.Boolean(),
  firstPayBonus: Count,
  /** The offer's start and end (instants; the console takes them in China time). Both, or neither. */
  firstPayStartsAt: Nullable(Instant),
  firstPayEndsAt: Nullable(Instant),
});
export type PackInput = Static<typeof PackInput>;

export const ChannelInput = Type.Object({
  active: Type.Boolean(),
  discountPercent: Type.Integer({ minimum: 1, maximum: 100 }),
  initiatorCode: InitiatorCode,
  sort: Sort,
});
export type ChannelInput = Static<typeof ChannelInput>;

export const PacksAndChannels = Type.Object({
  packs: Type.Array(ConsolePack),
  channels: Type.Array(ConsoleChannel),
});
export type PacksAndChannels = Static<typeof PacksAndChannels>;

export const packsRoutes = {
  packsAndChannels: adminRoute({
    method: 'GET',
    url: '/api/admin/packs',
    summary: '充值套餐（阅币、VIP、月卡）与支付渠道，按顺序',
    data: PacksAndChannels,
  }),
  addPack: adminRoute({
    method: 'POST',
    url: '/api/admin/packs',
    summary: '新增充值套餐（只影响新订单）',
    body: Type.Object({ type: PackType, ...PackInput.properties }),
    refusals: [400],
    data: ConsolePack,
  }),
  editPack: adminRoute({
    method: 'POST',
    url: '/api/admin/packs/:id',
    summary: '修改充值套餐：价格、阅币、赠送、VIP 天数、顺序、推荐、上下架、首充加赠（只影响新订单）',
    params: Type.Object({ id: AdminId }),
    body: PackInput,
    refusals: [400, 404],
    data: ConsolePack,
  }),
  editChannel: adminRoute({
    method: 'POST',
    url: '/api/admin/pay-channels/:code',
    summary: '修改支付渠道：开关、折扣、推广渠道、顺序（只影响新订单）',
    params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 40 }) }),
    body: ChannelInput,
    refusals: [404],
    data: ConsoleChannel,
  }),
};
