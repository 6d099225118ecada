import { type ComponentType, lazy, useState } from 'react';
import { ChunkLoadError } from '../lib/chunk-load.ts';

/** A screen whose code is a chunk of its own (app/routes.tsx). */
export interface LazyScreen {
  /** What to mount now: the page itself once its code is here, else a lazy component that suspends until it is. */
  component(): ComponentType;
  /** Loads the screen's code ahead (idle preloading); a failure is left for the screen's own load to show. */
  preload(): Promise<void>;
  /**
   * Forgets a failed import once its failure shows, so the next mount (重试, or coming back to the screen)
   * imports again. Not earlier: React renders a page that never mounted afresh while it retries, and a new
   * import there would be a new fetch each time.
   */
  forgetFailure(): void;
}

/**
 * The import's failure is a ChunkLoadError, which the error boundary shows as 'did not load' with 重试. React.lazy
 * keeps a failed import for good, so forgetFailure() makes a new one for the next mount. Once the code is here (preloaded, or shown before) the page is mounted as it is: a lazy component
 * mounted anew suspends for a moment even then, and its skeleton would flash.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loaded: ComponentType | null = null;
  const importing = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const makeLazy = () =>
    lazy(() =>
      importing().catch((err: unknown) => {
        throw new ChunkLoadError(err);
      }),
    );
  let pending = makeLazy();
  return {
    component: () => loaded ?? pending,
    preload: () =>
      importing().then(
        () => undefined,
        () => undefined,
      ),
    forgetFailure: () => {
      if (!loaded) pending = makeLazy();
    },
  };
}

/** A route's screen; its component is chosen once per mount, so the page never changes type (and state) under the reader. */
export function ScreenPage({ screen }: { screen: LazyScreen }) {
  const [Page] = useState(() => screen.component());
  return <Page />;
}
