/** Placeholder until this screen is built. */
export default function MoreListPage() {
  return <main className="page">MoreListPage</main>;
}
