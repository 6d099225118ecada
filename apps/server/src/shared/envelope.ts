import { Code, type Envelope } from '@yueman/contract';

export const ok = <T>(data: T, msg = 'success'): Envelope<T> => ({ result: true, code: Code.ok, msg, data });
export const fail = (code: number, msg: string): Envelope<null> => ({ result: false, code, msg, data: null });
