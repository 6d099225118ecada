import { type Static, type TSchema, Type } from 'typebox';

/** A success: result true, code 200, the call's data. */
export interface Success<T> {
  result: true;
  code: number;
  msg: string;
  data: T;
}
/**
 * A refusal: result false, one of `Code` (rules.ts) or the HTTP status of a transport failure, a Chinese message,
 * and data null, or what the call documents for its code (code 999: the chapter info, or the price and balance).
 */
export interface Refusal {
  result: false;
  code: number;
  msg: string;
  data: unknown;
}
/** Every JSON answer under /api (docs/api.md section 1): its type, and (below) its schema around a data schema. */
export type Envelope<T> = Success<T> | Refusal;
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    result: Type.Boolean(),
    code: Type.Integer(),
    msg: Type.String(),
    data,
  });

/** Failures: result false, the code, a Chinese message, and data null (or, for code 999, the chapter info). */
export const ErrorEnvelope = Envelope(Type.Unknown());
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** A positive page number; pages start at 1. */
export const Page = Type.Integer({ minimum: 1, maximum: 100000, description: '页码，从 1 开始' });
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
/** A branch (promotion channel) id: any value of the database's integer column; -2 is the default branch. */
export const BranchId = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });
/** Cents a reader pays at once: up to 1,000,000 yuan, far above any pack. */
export const Cents = Type.Integer({ minimum: 1, maximum: 100_000_000 });
