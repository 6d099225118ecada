import { Link } from 'react-router';
import { homePath } from '../../../lib/paths.ts';

/**
 * What stays on screen when a chapter cannot be shown. The reason itself is said in a modal alert (spec
 * section 8), which hides after 1.5 s; the note keeps the way on: home, the catalogue, or try again.
 */
export function ReaderNote({
  home = false,
  onCatalog,
  onRetry,
}: {
  home?: boolean;
  onCatalog?: () => void;
  onRetry?: () => void;
}) {
  return (
    <div className="reader-note">
      {home && (
        <Link to={homePath()} className="reader-note-button">
          返回首页
        </Link>
      )}
      {onCatalog && (
        <button type="button" className="reader-note-button" onClick={onCatalog}>
          查看目录
        </button>
      )}
      {onRetry && (
        <button type="button" className="reader-note-button" onClick={onRetry}>
          重试
        </button>
      )}
    </div>
  );
}
