import type { createRoot as CreateRoot, Root } from 'react-dom/client';

// React's renderer (react-dom/client) is loaded by src/main.tsx in a task of its own, after the app's modules have
// run. The few places that make a React root of their own (antd-mobile's Toast, Dialog and Modal) take it from here,
// so no module of the main bundle imports the renderer statically; none of them draws before the app has started.

let create: typeof CreateRoot | undefined;

/** Called once by main.tsx when the renderer has loaded. */
export function setRenderer(createRoot: typeof CreateRoot) {
  create = createRoot;
}

/** A React root on `container`, made with the renderer main.tsx loaded. */
export function makeRoot(container: Element | DocumentFragment): Root {
  if (!create) throw new Error('React 的渲染器尚未加载');
  return create(container);
}
