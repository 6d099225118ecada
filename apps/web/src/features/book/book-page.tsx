/** Placeholder until this screen is built. */
export default function BookPage() {
  return <main className="page">BookPage</main>;
}
