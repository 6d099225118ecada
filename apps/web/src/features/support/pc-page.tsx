/** Placeholder until this screen is built. */
export default function PcPage() {
  return <main className="page">PcPage</main>;
}
