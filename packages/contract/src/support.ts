import { type Static, Type } from 'typebox';
import { BranchId } from './envelope.ts';

export const CommonInfo = Type.Object({
  appDownloadUrl: Type.String(),
  appDownloadHome: Type.String(),
  customerServiceEmail: Type.String(),
  customerServiceQQ: Type.String(),
});
export type CommonInfo = Static<typeof CommonInfo>;

export const BranchParams = Type.Object({
  branchId: BranchId,
});

export const SubmitContactQuery = Type.Object({
  userId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  visitorId: Type.Optional(Type.String({ maxLength: 64 })),
  contactType: Type.Union([Type.Literal('qq'), Type.Literal('email')]),
  contactPosition: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ReportBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 50 }),
  content: Type.Optional(Type.String({ maxLength: 1000 })),
  contact: Type.Optional(Type.String({ maxLength: 100 })),
  pageUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  /** 举报此页 from the reader's menu: the page of a chapter the reader was looking at (all three, or none). */
  bookId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  chapterNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
});
export const Created = Type.Object({ id: Type.Integer() });
