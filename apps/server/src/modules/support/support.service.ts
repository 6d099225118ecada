import { type CommonInfo, DEFAULT_BRANCH } from '@yueman/contract';
import { forbidden } from '../../shared/errors.ts';
import type { SupportRepository } from './support.repository.ts';

export interface SupportDeps {
  repo: SupportRepository;
}

/** A branch without settings of its own uses the default branch's. */
export async function commonInfo(
  { repo }: SupportDeps,
  { branchId }: { branchId: number },
): Promise<CommonInfo> {
  const rows = await repo.settingsFor([branchId, DEFAULT_BRANCH]);
  const row = rows.find((r) => r.branchId === branchId) ?? rows.find((r) => r.branchId === DEFAULT_BRANCH);
  return {
    appDownloadUrl: row?.appDownloadUrl ?? '',
    appDownloadHome: row?.appDownloadHome ?? '',
    customerServiceEmail: row?.customerServiceEmail ?? '',
    customerServiceQQ: row?.customerServiceQq ?? '',
  };
}

export async function submitContact(
  { repo }: SupportDeps,
  input: {
    claimedUserId?: number;
    sessionUserId: number | null;
    visitorId?: string;
    contactType: string;
    contactPosition: string;
  },
) {
  if (input.claimedUserId && input.sessionUserId !== null && input.claimedUserId !== input.sessionUserId)
    throw forbidden();
  return repo.insertContact({
    userId: input.sessionUserId,
    visitorId: input.visitorId ?? '',
    contactType: input.contactType,
    contactPosition: input.contactPosition.trim(),
  });
}

export function submitReport(
  { repo }: SupportDeps,
  input: {
    userId: number | null;
    visitorId: string;
    reason: string;
    content?: string;
    contact?: string;
    pageUrl?: string;
  },
) {
  return repo.insertReport({
    userId: input.userId,
    visitorId: input.visitorId,
    reason: input.reason.trim(),
    content: input.content?.trim() ?? '',
    contact: input.contact?.trim() ?? '',
    pageUrl: input.pageUrl ?? '',
  });
}
