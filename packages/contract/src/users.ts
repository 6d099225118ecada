import { type Static, Type } from 'typebox';

export const UserInfo = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  /** Only the register answer carries the generated password; elsewhere it is empty. */
  password: Type.String(),
  visitorId: Type.String(),
  branchId: Type.Integer(),
  /** 'none' when the reader has no VIP or it has ended. */
  vipType: Type.String(),
  /** Coin balance, spelled as the spec spells it. */
  avaliableAmount: Type.Integer(),
  mobile: Type.String(),
  vipEndYear: Type.Integer(),
  vipEndMonth: Type.Integer(),
  vipEndDay: Type.Integer(),
  vipEndHour: Type.Integer(),
  /** China time, 'YYYY-MM-DD HH:mm', empty without VIP. */
  vipEndDate: Type.String(),
});
export type UserInfo = Static<typeof UserInfo>;

export const RegisterQuery = Type.Object({ fromDomain: Type.Optional(Type.String({ maxLength: 253 })) });
export const UserFromMarkQuery = Type.Object({ referUrl: Type.Optional(Type.String({ maxLength: 2048 })) });
export const UserFromMark = Type.Object({ firstVisit: Type.Boolean() });
