import { useEffect, useRef, useState } from 'react';
import { coverObjectUrl, type ImageWidth } from '../lib/images.ts';

const PLACEHOLDER =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40"><rect width="30" height="40" fill="#f2f2f2"/><text x="15" y="23" font-size="6" text-anchor="middle" fill="#bbb">阅漫</text></svg>',
  );

/**
 * A book cover: fetched as encrypted text and decrypted in the browser (docs/api.md section 5), with the
 * placeholder on 204. It reserves its box before loading (no layout shift) and loads only near the viewport
 * unless `eager`.
 */
export function Cover(props: {
  path: string;
  width: ImageWidth;
  shape?: 'vertical' | 'horizontal';
  alt: string;
  eager?: boolean;
  className?: string;
}) {
  const { path, width, shape = 'vertical', alt, eager = false, className = '' } = props;
  const box = useRef<HTMLDivElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [near, setNear] = useState(eager);

  useEffect(() => {
    if (near || !box.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '300px' },
    );
    io.observe(box.current);
    return () => io.disconnect();
  }, [near]);

  useEffect(() => {
    if (!near) return;
    let live = true;
    void coverObjectUrl(path, width).then((url) => live && setSrc(url ?? PLACEHOLDER));
    return () => {
      live = false;
    };
  }, [near, path, width]);

  const [w, h] = shape === 'vertical' ? [3, 4] : [16, 9];
  return (
    <div ref={box} className={`cover cover-${shape} ${className}`}>
      {src && <img src={src} alt={alt} width={w * 100} height={h * 100} decoding="async" />}
    </div>
  );
}
