/** The reader app arrives with the next issue; this shell proves the build and the server's hosting. */
export function App() {
  return (
    <main style={{ fontFamily: 'sans-serif', padding: 24, textAlign: 'center' }}>
      <h1>阅漫</h1>
      <p>网站建设中</p>
    </main>
  );
}
