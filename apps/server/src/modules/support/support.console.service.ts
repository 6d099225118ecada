import type { ComplaintState } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { SupportConsoleRepository } from './support.console.repository.ts';
import { complaintMovedMeanwhile, noSuchComplaint, sameComplaintState } from './support.errors.ts';

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

type ComplaintRow = NonNullable<Awaited<ReturnType<SupportConsoleRepository['complaint']>>>;
type Editor = { operatorId: number; actor: string };

const iso = (at: Date | null) => at?.toISOString() ?? null;
const complaintOut = (row: ComplaintRow) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  stateAt: iso(row.stateAt),
  chapterPublishAt: iso(row.chapterPublishAt),
});

/** A page of the readers' complaints (of one state, or all), newest first. */
export async function complaints(
  deps: SupportConsoleDeps,
  input: { page: number; size: number; state?: ComplaintState },
) {
  const { rows, total } = await deps.repo.complaints({ ...consoleWindow(input), state: input.state });
  return { page: input.page, size: input.size, total, list: rows.map(complaintOut) };
}

async function withNotes(deps: SupportConsoleDeps, id: number, q?: Queryable) {
  const row = await deps.repo.complaint(id, q);
  if (!row) throw noSuchComplaint();
  const notes = await deps.repo.notes(id, q);
  return {
    complaint: complaintOut(row),
    notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
  };
}

/** One complaint with its notes, oldest first. */
export const complaint = (deps: SupportConsoleDeps, input: { id: number }) => withNotes(deps, input.id);

/**
 * Moves a complaint from the state the operator saw (`from`) to another: 处理中 and 已处理 name the operator as its
 * handler, 新 clears it. The row is locked, so of two operators taking the same complaint one wins and the other is
 * told who has it (409, nothing changed). Audited with the handling before and after.
 */
export async function setComplaintState(
  deps: SupportConsoleDeps,
  input: { id: number; from: ComplaintState; state: ComplaintState; editor: Editor },
) {
  if (input.from === input.state) throw sameComplaintState();
  return deps.repo.transaction(async (tx) => {
    const before = await deps.repo.lockComplaint(tx, input.id);
    if (!before) throw noSuchComplaint();
    if (before.state !== input.from)
      throw complaintMovedMeanwhile(before, await withNotes(deps, input.id, tx));
    const handlerId = input.state === 'new' ? null : input.editor.operatorId;
    await deps.repo.setComplaintState(tx, input.id, { state: input.state, handlerId, stateAt: new Date() });
    const after = await deps.repo.lockComplaint(tx, input.id);
    await deps.audit(tx, {
      ...input.editor,
      action: 'complaint.state',
      target: `complaint:${input.id}`,
      before,
      after,
    });
    return withNotes(deps, input.id, tx);
  });
}

/** Adds an operator's note (or the record of a reply sent through the reader's contact) to a complaint; audited. */
export async function addComplaintNote(
  deps: SupportConsoleDeps,
  input: { id: number; kind: 'note' | 'reply'; text: string; editor: Editor },
) {
  return deps.repo.transaction(async (tx) => {
    if (!(await deps.repo.lockComplaint(tx, input.id))) throw noSuchComplaint();
    const note = await deps.repo.addNote(tx, {
      reportId: input.id,
      operatorId: input.editor.operatorId,
      operatorName: input.editor.actor,
      kind: input.kind,
      text: input.text.trim(),
    });
    await deps.audit(tx, {
      ...input.editor,
      action: input.kind === 'reply' ? 'complaint.reply' : 'complaint.note',
      target: `complaint:${input.id}`,
      before: null,
      after: note,
    });
    return withNotes(deps, input.id, tx);
  });
}
