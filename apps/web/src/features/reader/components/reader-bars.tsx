import type { Ref } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { homePath } from '../../../lib/paths.ts';

/** The bottom bar's icons (components/icon.tsx). */
const ICONS = {
  catalog: 'M4 5h2v2H4zm4 0h12v2H8zM4 11h2v2H4zm4 0h12v2H8zm-4 6h2v2H4zm4 0h12v2H8z',
  previous: 'M15.5 4 7.5 12l8 8 1.5-1.5L10.5 12 17 5.5z',
  next: 'M8.5 4 7 5.5l6.5 6.5L7 18.5 8.5 20l8-8z',
  heart: 'M12 21s-8-5.3-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.7-8 11-8 11z',
  settings:
    'M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58a.49.49 0 0 0 .12-.61l-1.92-3.32a.49.49 0 0 0-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54a.48.48 0 0 0-.48-.41h-3.84a.47.47 0 0 0-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96a.48.48 0 0 0-.59.22L2.74 8.87a.47.47 0 0 0 .12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58a.49.49 0 0 0-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96c.22.08.47 0 .59-.22l1.92-3.32a.47.47 0 0 0-.12-.61zM12 15.6a3.6 3.6 0 1 1 0-7.2 3.6 3.6 0 0 1 0 7.2z',
};

/**
 * The bars slide away while reading but their buttons stay in the Tab order: a button reached with the
 * keyboard shows the bars (only then: a tap's focus, or the focus given back when the sheet closes after a tap,
 * does not match :focus-visible).
 */
const showOnKeyboardFocus = (onShow: () => void) => (e: React.FocusEvent) => {
  if ((e.target as Element).matches(':focus-visible')) onShow();
};

/** The reader's top bar: back, book name and chapter title. */
export function ReaderTopBar({
  visible,
  bookName,
  chapterTitle,
  onShow,
  onReport,
}: {
  visible: boolean;
  bookName: string;
  chapterTitle: string;
  onShow(): void;
  /** 举报此页: only while a chapter's pages are shown. */
  onReport?(): void;
}) {
  const navigate = useNavigate();
  const onFocus = showOnKeyboardFocus(onShow);
  return (
    <header className={`reader-top ${visible ? 'is-visible' : ''}`}>
      <button
        type="button"
        className="reader-back"
        aria-label="返回"
        onFocus={onFocus}
        onClick={() => (history.length > 1 ? navigate(-1) : navigate(homePath()))}
      />
      <div className="reader-top-titles">
        <span className="reader-top-book">{bookName}</span>
        <span className="reader-top-chapter">{chapterTitle}</span>
      </div>
      {onReport && (
        <button
          type="button"
          className="reader-report"
          aria-label="举报此页"
          onFocus={onFocus}
          onClick={onReport}
        >
          举报
        </button>
      )}
      <button type="button" className="reader-home" onFocus={onFocus} onClick={() => navigate(homePath())}>
        首页
      </button>
    </header>
  );
}

/** The reader's bottom bar: 目录, 上一话, 下一话, 收藏, 设置 (the settings sheet). */
export function ReaderBottomBar(props: {
  visible: boolean;
  favourite: boolean;
  settingsOpen: boolean;
  settingsButton: Ref<HTMLButtonElement>;
  onCatalog(): void;
  onPrevious(): void;
  onNext(): void;
  onFavourite(): void;
  onSettings(): void;
  onShow(): void;
}) {
  const { visible, favourite } = props;
  return (
    <nav
      className={`reader-bottom ${visible ? 'is-visible' : ''}`}
      aria-label="阅读菜单"
      onFocus={showOnKeyboardFocus(props.onShow)}
    >
      <button type="button" className="reader-tool reader-tool-catalog" onClick={props.onCatalog}>
        <Icon d={ICONS.catalog} className="reader-tool-icon" />
        目录
      </button>
      <button type="button" className="reader-tool reader-tool-previous" onClick={props.onPrevious}>
        <Icon d={ICONS.previous} className="reader-tool-icon" />
        上一话
      </button>
      <button type="button" className="reader-tool reader-tool-next" onClick={props.onNext}>
        <Icon d={ICONS.next} className="reader-tool-icon" />
        下一话
      </button>
      <button
        type="button"
        className={`reader-tool reader-tool-favourite ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={props.onFavourite}
      >
        <Icon d={ICONS.heart} className="reader-tool-icon" />
        {favourite ? '已收藏' : '收藏'}
      </button>
      <button
        ref={props.settingsButton}
        type="button"
        className="reader-tool reader-tool-settings"
        aria-haspopup="dialog"
        aria-expanded={props.settingsOpen}
        onClick={props.onSettings}
      >
        <Icon d={ICONS.settings} className="reader-tool-icon" evenOdd />
        设置
      </button>
    </nav>
  );
}
