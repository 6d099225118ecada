import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { homePath } from '../../lib/paths.ts';

/** The placeholder home at /index: 'site being created', on to /home when the address carries tgId. */
export default function IndexPage() {
  const navigate = useNavigate();
  const { search } = useLocation();
  useEffect(() => {
    if (new URLSearchParams(search).has('tgId')) navigate(`${homePath()}${search}`, { replace: true });
  }, [navigate, search]);
  return (
    <main className="placeholder-page">
      <h1>阅漫</h1>
      <p>网站建设中</p>
    </main>
  );
}
