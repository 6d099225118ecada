/** Placeholder until this screen is built. */
export default function ReportPage() {
  return <main className="page">ReportPage</main>;
}
