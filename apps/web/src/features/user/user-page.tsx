/** Placeholder until this screen is built. */
export default function UserPage() {
  return <main className="page">UserPage</main>;
}
