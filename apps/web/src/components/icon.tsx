/**
 * The icons of the landing screens' first frame (the tab bar, the book page's 收藏, the reader's bottom bar), drawn
 * inline. As CSS masks with `data:` SVG addresses each distinct icon made the browser build an SVG document of its
 * own in the first style pass (about 4 ms each on a fast machine, 16 ms on Lighthouse's 4x slower phone): the
 * tab bar's four and the reader bar's five were a third of each screen's first commit (docs/decisions.md). Inline,
 * an icon is two elements of the page. Drawn in the text colour, as the masks were.
 */
const PATHS = {
  home: 'M3 11 12 3l9 8v10h-6v-6H9v6H3z',
  category: 'M3 3h8v8H3zm10 0h8v8h-8zM3 13h8v8H3zm10 0h8v8h-8z',
  shelf: 'M4 3h5v18H4zm6 0h5v18h-5zm6.5 1 4.6 1.2-4 15.9-4.6-1.2z',
  user: 'M16.5 8a4.5 4.5 0 1 1-9 0 4.5 4.5 0 0 1 9 0zM3 21c0-5 4-8 9-8s9 3 9 8z',
  heart: 'M12 21s-8-5.3-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.7-8 11-8 11z',
  catalog: 'M4 5h2v2H4zm4 0h12v2H8zM4 11h2v2H4zm4 0h12v2H8zm-4 6h2v2H4zm4 0h12v2H8z',
  previous: 'M15.5 4 7.5 12l8 8 1.5-1.5L10.5 12 17 5.5z',
  next: 'M8.5 4 7 5.5l6.5 6.5L7 18.5 8.5 20l8-8z',
  settings:
    'M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58a.49.49 0 0 0 .12-.61l-1.92-3.32a.49.49 0 0 0-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54a.48.48 0 0 0-.48-.41h-3.84a.47.47 0 0 0-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96a.48.48 0 0 0-.59.22L2.74 8.87a.47.47 0 0 0 .12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58a.49.49 0 0 0-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96c.22.08.47 0 .59-.22l1.92-3.32a.47.47 0 0 0-.12-.61zM12 15.6a3.6 3.6 0 1 1 0-7.2 3.6 3.6 0 0 1 0 7.2z',
} as const;

export type IconName = keyof typeof PATHS;

/** A 24-unit icon filling its box (the class gives the size), hidden from screen readers: its label is beside it. */
export function Icon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fillRule={name === 'settings' ? 'evenodd' : undefined} />
    </svg>
  );
}
