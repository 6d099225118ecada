import { useMutation } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';

export interface ReportForm {
  reason: string;
  content: string;
  contact: string;
  pageUrl: string;
  /** 举报此页: the page of a chapter reported from the reader's menu. */
  page?: ReportedPage;
}

export interface ReportedPage {
  bookId: number;
  chapterNumber: number;
  pageNumber: number;
}

/** POST /api/support/report (form body; docs/decisions.md, Support): answers the complaint's id. Empty fields stay out. */
export const submitReport = (form: ReportForm) =>
  data(routes.report, {
    form: {
      reason: form.reason,
      content: form.content || undefined,
      contact: form.contact || undefined,
      pageUrl: form.pageUrl || undefined,
      ...(form.page ?? {}),
    },
  });

export const useSubmitReport = () => useMutation({ mutationFn: submitReport });
