import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';

const AUTOPLAY_MS = 2500;
/** A scroll counts as finished after this long without a scroll event. */
const SETTLE_MS = 100;

/**
 * Autoplay and looping for a scroll-snapped track whose slides are each as wide as the track. While it loops
 * the track is laid out as [copy of the last, ...slides, copy of the first]: every 2500 ms it scrolls to the
 * next slide (smoothly, unless the reader asked for reduced motion), never while a finger is on it, and waits a
 * full interval after a swipe; when a scroll settles on a copy it jumps, without animation, to the slide
 * copied, so both ways loop. `onSlide` gets the index of the slide shown (0 to count - 1).
 *
 * It starts looping (and the copies go in) once the page is idle: placing the track one slide in reads its
 * layout, which at the first paint would pull the whole screen's layout into the render's task (about 40 ms
 * on a slow phone, enough to make it a long task). Until then the first slide shows, as it should.
 * Returns whether it loops, that is whether the copies are to be rendered.
 */
export function useCarouselLoop(
  track: RefObject<HTMLDivElement | null>,
  count: number,
  onSlide: (index: number) => void,
): boolean {
  const [looping, setLooping] = useState(false);
  // The slide on screen when the copies go in, or -1 once placed. Before the loop starts it changes only by
  // a swipe, so it is read then rather than when the loop starts (a layout read in that idle task would lay
  // out the whole screen just built below the first one).
  const startAt = useRef(0);
  useEffect(() => {
    const el = track.current;
    if (!el || count < 2 || looping) return;
    const onScroll = () => {
      if (el.clientWidth) startAt.current = Math.round(el.scrollLeft / el.clientWidth);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    // Safari has no requestIdleCallback.
    const idle = typeof requestIdleCallback === 'function';
    const start = () => setLooping(true);
    const id = idle ? requestIdleCallback(start, { timeout: 3000 }) : window.setTimeout(start, 1000);
    return () => {
      el.removeEventListener('scroll', onScroll);
      if (idle) cancelIdleCallback(id);
      else clearTimeout(id);
    };
  }, [track, count, looping]);

  useLayoutEffect(() => {
    const el = track.current;
    if (!el || !looping) return;
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    const position = () => Math.round(el.scrollLeft / el.clientWidth);
    const jump = (p: number) => el.scrollTo({ left: p * el.clientWidth, behavior: 'instant' });
    // The copy of the last slide has just gone in before the first: keep the same slide on screen. (Some
    // browsers re-snap to it by themselves, others keep the scroll offset; placing it covers both.)
    if (startAt.current >= 0) {
      jump(startAt.current + 1);
      startAt.current = -1;
    }

    let touching = false;
    let settling = 0;
    let autoplay = 0;
    const settle = () => {
      if (touching || !el.clientWidth) return;
      const p = position();
      if (p <= 0) jump(count);
      else if (p >= count + 1) jump(1);
      onSlide((((p - 1) % count) + count) % count);
    };
    const onScroll = () => {
      clearTimeout(settling);
      settling = window.setTimeout(settle, SETTLE_MS);
    };
    const play = () => {
      clearInterval(autoplay);
      autoplay = window.setInterval(() => {
        if (touching || document.hidden || !el.clientWidth) return;
        el.scrollTo({ left: (position() + 1) * el.clientWidth, behavior: smooth ? 'smooth' : 'instant' });
      }, AUTOPLAY_MS);
    };
    const onTouchStart = () => {
      touching = true;
    };
    const onTouchEnd = () => {
      touching = false;
      onScroll();
      play();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('touchstart', onTouchStart, { passive: true });
    el.addEventListener('touchend', onTouchEnd, { passive: true });
    el.addEventListener('touchcancel', onTouchEnd, { passive: true });
    settle();
    play();
    return () => {
      clearTimeout(settling);
      clearInterval(autoplay);
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('touchstart', onTouchStart);
      el.removeEventListener('touchend', onTouchEnd);
      el.removeEventListener('touchcancel', onTouchEnd);
    };
  }, [track, looping, count, onSlide]);
  return looping;
}
