import { Code, type Refusal, type Success } from '@yueman/contract';

export const ok = <T>(data: T, msg = 'success'): Success<T> => ({ result: true, code: Code.ok, msg, data });
export const fail = (code: number, msg: string): Refusal => ({ result: false, code, msg, data: null });
