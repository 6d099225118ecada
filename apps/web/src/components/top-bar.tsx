// antd-mobile's NavBar look, with our own markup: its back area is a div with role=button that a keyboard cannot
// reach (no tab stop, no Enter); here it is a real button, with the chevron the skeletons draw (skeletons.css).
import 'antd-mobile/es/components/nav-bar/nav-bar.css';
import { useNavigate } from 'react-router';
import { homePath } from '../lib/paths.ts';

/** The top bar of inner screens: back arrow, title, and a home button (spec section 2). */
export function TopBar({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <div className="adm-nav-bar top-bar">
      <div className="adm-nav-bar-left">
        <button
          type="button"
          className="bar-back"
          aria-label="返回"
          onClick={() => (history.length > 1 ? navigate(-1) : navigate(homePath()))}
        />
      </div>
      <div className="adm-nav-bar-title">{title}</div>
      <div className="adm-nav-bar-right">
        <button type="button" className="top-bar-home" onClick={() => navigate(homePath())} aria-label="首页">
          首页
        </button>
      </div>
    </div>
  );
}
