/** Placeholder until this screen is built. */
export default function CategoryPage() {
  return <main className="page">CategoryPage</main>;
}
