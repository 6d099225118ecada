export interface Envelope<T> {
  result: boolean;
  code: number;
  msg: string;
  data: T;
}

export const ok = <T>(data: T, msg = 'success'): Envelope<T> => ({ result: true, code: 200, msg, data });
export const fail = (code: number, msg: string): Envelope<null> => ({ result: false, code, msg, data: null });
