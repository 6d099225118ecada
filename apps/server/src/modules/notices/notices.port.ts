import type { NoticeKind } from '@yueman/contract';

/** What other modules may ask of the notices module. */
export interface NoticesPort {
  /** Whether WeChat notices are configured (WECHAT_NOTICE_TEMPLATES). */
  enabled: boolean;
  /**
   * A notice owed to a reader, sent once per (eventKey, reader) by the notices job when the reader allows the kind:
   * e.g. `{ kind: 'new_chapter', eventKey: 'new_chapter:{bookId}:{number}', bookId, chapterNumber, title: book
   * title, text: '第N话已更新' }`. The chapter is where the notice's link lands. Answers whether it was new.
   */
  enqueue(notice: {
    userId: number;
    kind: NoticeKind;
    eventKey: string;
    bookId?: number;
    chapterNumber?: number;
    title: string;
    text: string;
  }): Promise<boolean>;
}
