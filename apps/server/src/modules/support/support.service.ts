import { type CommonInfo, DEFAULT_BRANCH } from '@yueman/contract';
import { badRequest, forbidden } from '../../shared/errors.ts';
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

export async function submitReport(
  { repo }: SupportDeps,
  input: {
    userId: number | null;
    visitorId: string;
    reason: string;
    content?: string;
    contact?: string;
    pageUrl?: string;
    bookId?: number;
    chapterNumber?: number;
    pageNumber?: number;
  },
) {
  const row = {
    userId: input.userId,
    visitorId: input.visitorId,
    reason: input.reason.trim(),
    content: input.content?.trim() ?? '',
    contact: input.contact?.trim() ?? '',
    pageUrl: input.pageUrl ?? '',
  };
  const { bookId, chapterNumber, pageNumber } = input;
  if (bookId === undefined && chapterNumber === undefined && pageNumber === undefined)
    return repo.insertReport(row);
  // 举报此页: the page must be one a reader can see, or the operator would be sent to nothing.
  if (bookId === undefined || chapterNumber === undefined || pageNumber === undefined)
    throw badRequest('举报的页面须同时给出 bookId、chapterNumber 和 pageNumber', 'pageNumber');
  const created = await repo.insertPageReport({ ...row, bookId, chapterNumber, pageNumber });
  if (!created) throw badRequest('举报的页面不存在', 'pageNumber');
  return created;
}
