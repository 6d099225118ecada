import { TopBar } from '../../components/top-bar.tsx';

export default function Page() {
  return (
    <main className="page">
      <TopBar title="消费记录" />
    </main>
  );
}
