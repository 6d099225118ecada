// antd-mobile's NavBar look, with our own markup: its back area is a div with role=button that a keyboard cannot
// reach (no tab stop, no Enter); here it is a real button, with the chevron the skeletons draw (skeletons.css).
import 'antd-mobile/es/components/nav-bar/nav-bar.css';
import { BackButton, HomeButton } from './bar-buttons.tsx';

/** The top bar of inner screens: back arrow, title, and a home button (spec section 2). */
export function TopBar({ title }: { title: string }) {
  return (
    <div className="adm-nav-bar top-bar">
      <div className="adm-nav-bar-left">
        <BackButton />
      </div>
      <div className="adm-nav-bar-title">{title}</div>
      <div className="adm-nav-bar-right">
        <HomeButton />
      </div>
    </div>
  );
}
