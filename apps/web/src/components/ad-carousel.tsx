import type { Ad } from '@yueman/contract';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { imageUrl } from '../lib/images.ts';
import { adLink } from './ad-link.ts';
import { useCarouselLoop } from './use-carousel-loop.ts';
import './ad-carousel.css';

/**
 * Ad carousel (spec sections 3 and 9): autoplay every 2500 ms, looping both ways, swiped by hand; a tap follows
 * the ad's jump type.
 *
 * Built on the browser's scroll snapping rather than antd-mobile's Swiper: Swiper brings its animation library
 * (about 27 KB gzip), whose start-up was a task of about 300 ms on Lighthouse's slow phone, on home and every
 * list, before or after the first screen. Here a swipe is native scrolling and autoplay a smooth scroll.
 *
 * A slide's picture is asked for when it is next: the first at once, the second when the loop starts, each further
 * one when the slide before it shows, all of them once the reader touches, scrolls or tabs into the carousel. The
 * browser's own lazy loading counts the slides beside the first as near, and fetched all of them with the first
 * screen's covers, on a slow phone's link and CPU (bench/README.md).
 */
export const AdCarousel = memo(function AdCarousel({ ads, eager = true }: { ads: Ad[]; eager?: boolean }) {
  const navigate = useNavigate();
  const track = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(0);
  // The last slide whose picture may load (see above).
  const [ahead, setAhead] = useState(0);
  const showAhead = useCallback((index: number) => setAhead((a) => Math.max(a, index)), []);
  const onSlide = useCallback(
    (index: number) => {
      setShown(index);
      showAhead(index + 1);
    },
    [showAhead],
  );
  const looping = useCarouselLoop(track, ads.length, onSlide);
  useEffect(() => {
    if (looping) showAhead(1);
  }, [looping, showAhead]);
  useEffect(() => {
    const el = track.current;
    if (!el) return;
    const handOn = () => showAhead(ads.length - 1);
    const events = ['touchstart', 'pointerdown', 'wheel', 'focusin'] as const;
    for (const type of events) el.addEventListener(type, handOn, { passive: true });
    return () => {
      for (const type of events) el.removeEventListener(type, handOn);
    };
  }, [ads.length, showAhead]);
  const first = ads[0];
  const last = ads[ads.length - 1];
  if (!first || !last) return null;

  const open = (ad: Ad) => {
    const link = adLink(ad);
    if (!link) return;
    if ('route' in link) navigate(link.route);
    else if ('leave' in link) location.href = link.leave;
    else window.open(link.open, '_blank');
  };
  const slide = (
    ad: Ad,
    key: string,
    opts: { main?: boolean; copy?: 'first' | 'last'; picture: boolean },
  ) => (
    <button
      key={key}
      type="button"
      className={`ad-slide ${opts.copy ? `ad-copy-${opts.copy}` : ''}`}
      // The copies that make the loop seamless are not separate ads for a screen reader or the keyboard.
      aria-hidden={opts.copy ? true : undefined}
      tabIndex={opts.copy ? -1 : undefined}
      // Its name even before its picture is asked for (the picture's alt text names it after).
      aria-label={opts.picture ? undefined : '广告'}
      onClick={() => open(ad)}
    >
      {/* Until its picture may load, the slide's grey background holds its place. */}
      {opts.picture && (
        <img
          src={imageUrl(ad.imgPath, 500)}
          width={750}
          height={300}
          alt="广告"
          loading={opts.main ? 'eager' : 'lazy'}
          fetchPriority={opts.main ? 'high' : 'auto'}
          decoding="async"
        />
      )}
    </button>
  );
  return (
    <div className="ad-carousel" data-testid="ad-carousel">
      <div className="ad-frame">
        <div className="ad-track" ref={track}>
          {ads.map((ad, i) => slide(ad, ad.imgPath, { main: eager && i === 0, picture: i <= ahead }))}
          {/* The copy of the last ad comes first on screen (CSS order), after the ads in the document. */}
          {looping && slide(first, 'copy-first', { copy: 'first', picture: true })}
          {looping && slide(last, 'copy-last', { copy: 'last', picture: ahead >= ads.length - 1 })}
        </div>
        {looping && (
          <div className="ad-dots" aria-hidden>
            {ads.map((ad, i) => (
              <span key={ad.imgPath} className={i === shown ? 'is-shown' : ''} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
});
