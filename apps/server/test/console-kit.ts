// The console's calls from a test: operators of the given roles, signed in, and a caller that sends their cookie
// and our Origin, as the console's page would.
import { notInArray } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { auditLog } from '../src/db/schema/index.ts';
import { operatorCommands } from '../src/modules/operators/index.ts';
import type { TestApp } from './test-app.ts';

/** The audit log's entries about sessions and refusals, not writes: a refused write adds one and changes nothing. */
const SESSION_ACTIONS = ['operator.login', 'operator.login-failed', 'operator.logout', 'operator.refused'];

/** How many writes the audit log holds (its sign-ins, sign-outs and refusals aside). */
export const auditedWrites = (db: Database) =>
  db.$count(auditLog, notInArray(auditLog.action, SESSION_ACTIONS));

export type Role = 'owner' | 'editor' | 'finance' | 'support';

/** One operator per role (`<role>1`), signed in; `admin(role, …)` calls the console as that operator. */
export async function consoleOperators(t: TestApp, roles: readonly Role[]) {
  const origin = t.config.trustedOrigins[0] as string;
  const cookies: Partial<Record<Role, string>> = {};
  for (const role of roles) {
    const { password } = await operatorCommands(t.db).add(`${role}1`, role);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { origin },
      payload: { name: `${role}1`, password },
    });
    const cookie = res.cookies.find((c) => c.name === 'yadm');
    if (!cookie) throw new Error(`${role}1 could not sign in: ${res.body}`);
    cookies[role] = `yadm=${cookie.value}`;
  }
  const admin = (role: Role, method: 'GET' | 'POST', url: string, body?: object) =>
    t.app.inject({
      method,
      url,
      headers: { origin, cookie: cookies[role] as string },
      ...(body ? { payload: body } : {}),
    });
  /** A multipart form (an archive, a cover, an ad's picture), as the console's upload sends it. */
  const upload = (role: Role, url: string, form: FormData) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { origin, cookie: cookies[role] as string },
      payload: form,
    });
  return { admin, upload, origin };
}

/** A form with `file` under `field` (named `fileName`) and text fields, in the order given (text first). */
export function uploadForm(
  field: string,
  fileName: string,
  bytes: Buffer,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(field, new Blob([new Uint8Array(bytes)]), fileName);
  return form;
}
