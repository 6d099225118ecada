import { type Static, type TSchema, Type } from 'typebox';

/** Every JSON answer under /api (CONTRACT.md section 1). */
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
