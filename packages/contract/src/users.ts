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

/** Login by account name or a bound mobile number (CONTRACT.md section 2). */
export const LoginQuery = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
});
/** The spec's screen sends mobile only; a password, when sent, is checked like login's. */
export const BindMobileQuery = Type.Object({
  mobile: Type.String({ maxLength: 32 }),
  password: Type.Optional(Type.String({ maxLength: 128 })),
});
export const ModifyPwdQuery = Type.Object({ password: Type.String({ maxLength: 128 }) });
/** The China-time date of a payment, 'YYYY-MM-DD'. */
export const FindAccountQuery = Type.Object({ chargeTime: Type.String({ maxLength: 32 }) });
/** Answered once: the account found and its newly generated password ('save and log in'). */
export const FoundAccount = Type.Object({ account: Type.String(), password: Type.String() });
export type FoundAccount = Static<typeof FoundAccount>;
