import { useEffect, useRef, useState } from 'react';

const EDGE_PX = 8;
const MOVE_PX = 6;

/**
 * The reader's menus show at the top and bottom of the chapter and on tap, and hide while scrolling. While
 * auto-scroll runs (`paused`), scrolling leaves them alone: auto-scroll hides them when it starts and shows
 * them at the chapter's end.
 */
export function useMenuVisibility(paused = false) {
  const [visible, setVisible] = useState(true);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(() => {
    // Read in the next frame, not here: right after the reader's commit it would force the new tree's style and
    // layout into this task (~120 ms at 4x CPU on opening the reader); in a frame they are done anyway.
    let lastY: number | null = null;
    let frame = requestAnimationFrame(() => {
      lastY = window.scrollY;
    });
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const y = window.scrollY;
        const max = document.documentElement.scrollHeight - window.innerHeight;
        if (!pausedRef.current) {
          if (y <= EDGE_PX || y >= max - EDGE_PX) setVisible(true);
          else if (lastY !== null && Math.abs(y - lastY) > MOVE_PX) setVisible(false);
        }
        lastY = y;
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  return [visible, setVisible] as const;
}
