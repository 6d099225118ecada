import { Code } from '@yueman/contract';
import { AppError } from '../errors.ts';

/** 429 with the seconds to wait; the route puts them in Retry-After. Readers' and operators' password checks share it. */
export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, Code.tooManyRequests, '操作过于频繁，请稍后再试');
  }
}
