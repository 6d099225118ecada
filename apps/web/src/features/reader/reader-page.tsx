/** Placeholder until this screen is built. */
export default function ReaderPage() {
  return <main className="page">ReaderPage</main>;
}
