import { useNavigate } from 'react-router';
import { homePath } from '../../../lib/paths.ts';

/** The reader's top bar: back, book name and chapter title. */
export function ReaderTopBar({
  visible,
  bookName,
  chapterTitle,
}: {
  visible: boolean;
  bookName: string;
  chapterTitle: string;
}) {
  const navigate = useNavigate();
  return (
    <header className={`reader-top ${visible ? 'is-visible' : ''}`}>
      <button
        type="button"
        className="reader-back"
        aria-label="返回"
        onClick={() => (history.length > 1 ? navigate(-1) : navigate(homePath()))}
      />
      <div className="reader-top-titles">
        <span className="reader-top-book">{bookName}</span>
        <span className="reader-top-chapter">{chapterTitle}</span>
      </div>
      <button type="button" className="reader-home" onClick={() => navigate(homePath())}>
        首页
      </button>
    </header>
  );
}

/** The reader's bottom bar: 目录, 上一话, 下一话, 收藏. */
export function ReaderBottomBar(props: {
  visible: boolean;
  favourite: boolean;
  onCatalog(): void;
  onPrevious(): void;
  onNext(): void;
  onFavourite(): void;
}) {
  const { visible, favourite } = props;
  return (
    <nav className={`reader-bottom ${visible ? 'is-visible' : ''}`} aria-label="阅读菜单">
      <button type="button" className="reader-tool reader-tool-catalog" onClick={props.onCatalog}>
        目录
      </button>
      <button type="button" className="reader-tool reader-tool-previous" onClick={props.onPrevious}>
        上一话
      </button>
      <button type="button" className="reader-tool reader-tool-next" onClick={props.onNext}>
        下一话
      </button>
      <button
        type="button"
        className={`reader-tool reader-tool-favourite ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={props.onFavourite}
      >
        {favourite ? '已收藏' : '收藏'}
      </button>
    </nav>
  );
}
