import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';

/** The recharge centre arrives with the accounts and payment issue; until then it says so plainly. */
export default function PurchasePage() {
  return (
    <main className="page">
      <TopBar title="充值中心" />
      <p className="placeholder-page">充值功能即将开放，敬请期待</p>
      <ServiceLinks />
    </main>
  );
}
