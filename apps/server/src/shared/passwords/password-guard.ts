import type { LimiterStore } from '../limiter-store.ts';
import { createAttemptLimiter } from './attempt-limiter.ts';
import { generatePassword, hashPassword, verifyPassword } from './password.ts';
import { TooManyAttempts } from './too-many-attempts.ts';

export interface PasswordLimits {
  /** Password attempts per account (or unknown account name) from one client address in one window. */
  perAccount: number;
  /** Password attempts per client address in one window. */
  perAddress: number;
  windowMs: number;
  /** Where the attempts are counted (the app's store, `app.limits`: shared by every server); memory if left out. */
  store?: LimiterStore;
  /** The counters' name in the store: 'password' for readers; the console's operators count apart. */
  name?: string;
}

/**
 * Checks passwords with a brute-force limit per account and address, and per client address (the socket's, or the first
 * one TRUST_PROXY's proxies did not add, so a forged X-Forwarded-For changes nothing). An attempt is counted before argon2 runs,
 * and a limited attempt never reaches argon2. A correct password clears its account's count and gives the
 * address its attempt back, so only failures add up.
 */
export function createPasswordGuard(limits: PasswordLimits) {
  const limiter = createAttemptLimiter(limits.windowMs, {
    store: limits.store,
    name: limits.name ?? 'password',
  });
  // Verified against when the account does not exist, so both cases cost one argon2 verification and
  // the time taken does not tell whether an account exists.
  const dummyHash = hashPassword(generatePassword(24));

  return {
    /**
     * True when the password is the user's. `user` is undefined for an unknown name, which is counted
     * under that name and always fails. Throws TooManyAttempts when the account or the address is limited.
     */
    async check(input: {
      user: { id: number; passwordHash: string } | undefined;
      name: string;
      password: string;
      ip: string;
    }): Promise<boolean> {
      const addressKey = `address:${input.ip}`;
      // A user is counted once whether it is named by account or by mobile, and per address: a stranger's wrong
      // guesses lock that stranger's address out of the account, never the reader on another network.
      const account = input.user ? `user:${input.user.id}` : `name:${input.name.toLowerCase()}`;
      const accountKey = `${account}@${input.ip}`;
      const wait = await limiter.take([
        { key: addressKey, max: limits.perAddress },
        { key: accountKey, max: limits.perAccount },
      ]);
      if (wait > 0) throw new TooManyAttempts(wait);

      const correct = input.user
        ? await verifyPassword(input.user.passwordHash, input.password)
        : await verifyPassword(await dummyHash, input.password).then(() => false);
      if (correct) {
        await limiter.clear(accountKey);
        await limiter.giveBack(addressKey);
      }
      return correct;
    },
  };
}

export type PasswordGuard = ReturnType<typeof createPasswordGuard>;
