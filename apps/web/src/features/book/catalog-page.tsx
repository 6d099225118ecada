/** Placeholder until this screen is built. */
export default function CatalogPage() {
  return <main className="page">CatalogPage</main>;
}
