/** Placeholder until this screen is built. */
export default function SearchPage() {
  return <main className="page">SearchPage</main>;
}
