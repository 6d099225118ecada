import { useNavigate } from 'react-router';
import { homePath } from '../lib/paths.ts';

/** The top bars' back arrow (a chevron drawn by skeletons.css `.bar-back`): back, or home when there is no back. */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="bar-back"
      aria-label="返回"
      onClick={() => (history.length > 1 ? navigate(-1) : navigate(homePath()))}
    />
  );
}

/** The top bars' 首页. */
export function HomeButton() {
  const navigate = useNavigate();
  return (
    <button type="button" className="top-bar-home" onClick={() => navigate(homePath())}>
      首页
    </button>
  );
}
