import { TopBar } from '../../components/top-bar.tsx';

export default function Page() {
  return (
    <main className="page">
      <TopBar title="登录" />
    </main>
  );
}
