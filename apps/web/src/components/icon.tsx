/**
 * The icons of the landing screens' first frame (the tab bar, the book page's 收藏, the reader's bottom bar), drawn
 * inline. As CSS masks with `data:` SVG addresses each distinct icon made the browser build an SVG document of its
 * own in the first style pass (about 4 ms each on a fast machine, 16 ms on Lighthouse's 4x slower phone): the
 * tab bar's four and the reader bar's five were a third of each screen's first commit (docs/decisions.md). Inline,
 * an icon is two elements of the page. Drawn in the text colour, as the masks were.
 */
/** A 24-unit icon (its path `d`) filling its box (the class gives the size), hidden from screen readers: its label is
 * beside it. The paths live with the screens that draw them, so each one's code carries only its own. */
export function Icon({ d, className, evenOdd = false }: { d: string; className: string; evenOdd?: boolean }) {
  return (
    <svg className={className} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <path d={d} fillRule={evenOdd ? 'evenodd' : undefined} />
    </svg>
  );
}
