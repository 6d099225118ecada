/** Placeholder until this screen is built. */
export default function ShelfPage() {
  return <main className="page">ShelfPage</main>;
}
