import type { ReactElement } from 'react';
import type { Root } from 'react-dom/client';
import { makeRoot } from '../app/react-root.ts';

// antd-mobile 5 draws Toast, Dialog and Modal through rc-util's `render`, written for ReactDOM.render, which React 19
// removed; app/providers.tsx replaces it with `unstableSetRender` before anything is shown. That unused default still
// cost the main bundle about 3 KB gzip (its async helpers compiled to regenerator), so the build resolves rc-util's
// module to this one (vite.config.ts): the same two functions on createRoot.

const roots = new WeakMap<Element | DocumentFragment, Root>();

export function render(node: ReactElement, container: Element | DocumentFragment) {
  let root = roots.get(container);
  if (!root) {
    root = makeRoot(container);
    roots.set(container, root);
  }
  root.render(node);
}

export async function unmount(container: Element | DocumentFragment) {
  roots.get(container)?.unmount();
  roots.delete(container);
}
