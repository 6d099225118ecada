/** Placeholder until this screen is built. */
export default function OpenInBrowserPage() {
  return <main className="page">OpenInBrowserPage</main>;
}
