import type { Queryable } from '../../db/client.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { SupportConsoleRepository } from './support.console.repository.ts';

export interface SupportConsoleDeps {
  repo: SupportConsoleRepository;
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  /** After a committed change readers must see (common info is a kept static answer). */
  changed(): void;
}

// The console's side of support: the service contacts each promotion branch shows (common info; branch -2 is the
// default the others fall back to), and the readers' complaints.

export const branches = (deps: SupportConsoleDeps) => deps.repo.branches();

/** A branch's name and service contacts; the name is kept when not sent. Audited with the row before and after. */
export async function saveBranch(
  deps: SupportConsoleDeps,
  input: {
    branchId: number;
    fields: {
      name?: string;
      appDownloadUrl: string;
      appDownloadHome: string;
      customerServiceEmail: string;
      customerServiceQq: string;
    };
    editor: { operatorId: number; actor: string };
  },
) {
  const { branchId, fields } = input;
  const body = { ...fields, ...(fields.name === undefined ? {} : { name: fields.name.trim() }) };
  const saved = await deps.repo.transaction(async (tx) => {
    const before = (await deps.repo.lockBranch(tx, branchId)) ?? null;
    const after = await deps.repo.saveBranch(tx, branchId, body);
    await deps.audit(tx, {
      ...input.editor,
      action: 'branch.settings',
      target: `branch:${branchId}`,
      before,
      after,
    });
    return after;
  });
  deps.changed();
  return saved;
}

/** A page of the readers' complaints, newest first. */
export async function complaints(deps: SupportConsoleDeps, input: { page: number; size: number }) {
  const { rows, total } = await deps.repo.complaints(consoleWindow(input));
  return {
    ...input,
    total,
    list: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}
