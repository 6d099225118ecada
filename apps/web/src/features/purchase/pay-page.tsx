import { TopBar } from '../../components/top-bar.tsx';

export default function PayPage() {
  return (
    <main className="page">
      <TopBar title="支付" />
    </main>
  );
}
