import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { homePath } from '../lib/paths.ts';

/** The top bar of inner screens: back arrow, title, and a home button (spec section 2). */
export function TopBar({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <NavBar
      className="top-bar"
      onBack={() => (history.length > 1 ? navigate(-1) : navigate(homePath()))}
      // antd-mobile's back area is a role=button with only an icon: this hidden text is its accessible name.
      left={<span className="visually-hidden">返回</span>}
      right={
        <button type="button" className="top-bar-home" onClick={() => navigate(homePath())} aria-label="首页">
          首页
        </button>
      }
    >
      {title}
    </NavBar>
  );
}
