import type { Ref } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { homePath } from '../../../lib/paths.ts';

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
        <Icon name="catalog" className="reader-tool-icon" />
        目录
      </button>
      <button type="button" className="reader-tool reader-tool-previous" onClick={props.onPrevious}>
        <Icon name="previous" className="reader-tool-icon" />
        上一话
      </button>
      <button type="button" className="reader-tool reader-tool-next" onClick={props.onNext}>
        <Icon name="next" className="reader-tool-icon" />
        下一话
      </button>
      <button
        type="button"
        className={`reader-tool reader-tool-favourite ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={props.onFavourite}
      >
        <Icon name="heart" className="reader-tool-icon" />
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
        <Icon name="settings" className="reader-tool-icon" />
        设置
      </button>
    </nav>
  );
}
