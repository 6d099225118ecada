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

// Empty or missing fields default to '' so the server answers the screen's own message (spec section 5).
// The account calls take their fields from the query (the original client) or from a form body (the web app,
// so that passwords stay out of URLs and logs); a field in the body wins.

/** Login by account name or a bound mobile number (docs/api.md section 2). */
export const LoginQuery = Type.Object({
  account: Type.String({ maxLength: 64, default: '' }),
  password: Type.String({ maxLength: 128, default: '' }),
});
/** The spec's screen sends mobile only; a password, when sent, is checked like login's. */
export const BindMobileQuery = Type.Object({
  mobile: Type.String({ maxLength: 32, default: '' }),
  password: Type.Optional(Type.String({ maxLength: 128 })),
});
/** Any non-empty password up to 128 characters: the spec shows no length or complexity rule. */
export const ModifyPwdQuery = Type.Object({ password: Type.String({ maxLength: 128, default: '' }) });
/**
 * The China-time date of a payment, 'YYYY-MM-DD', and the merchant order number of that payment, which the payer
 * holds (their payment app's bill, our cashier page and the after-payment dialog show it).
 */
export const FindAccountQuery = Type.Object({
  chargeTime: Type.String({ maxLength: 32, default: '' }),
  orderNo: Type.String({ maxLength: 64, default: '' }),
  /** The amount paid for that order in yuan ('30', '30.00'): an order number seen somewhere is not enough alone. */
  payAmount: Type.String({ maxLength: 16, default: '' }),
});
/** Answered once: the account found and its newly generated password ('save and log in'). */
export const FoundAccount = Type.Object({ account: Type.String(), password: Type.String() });
export type FoundAccount = Static<typeof FoundAccount>;

export const LOGIN_FAILED_MSG = '账户或密码不正确';
export const MOBILE_TAKEN_MSG = '该手机号已绑定其他账号';
export const ACCOUNT_NOT_FOUND_MSG =
  '对不起，您的充值账号未找到，您可以联系客服帮忙找回（客服在线时间：9:30 ~ 21:00）';

/**
 * POST /api/user/handoff (session): a one-time link that opens this account in another browser (out of WeChat or
 * QQ into the system browser): ten minutes, one use. The token is in the link only, never stored in clear.
 */
export const HandoffQuery = Type.Object({
  /** The page of this site to open there (a path); anything else opens the home page. */
  to: Type.Optional(Type.String({ maxLength: 512 })),
});

export const HandoffLink = Type.Object({
  url: Type.String(),
  /** ISO 8601. */
  expiresAt: Type.String(),
});
export type HandoffLink = Static<typeof HandoffLink>;

/** POST /api/user/handoff/redeem (JSON): spends the link's token; this browser is signed in to its account. */
export const RedeemHandoffBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) });
