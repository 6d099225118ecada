import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { unstableSetRender } from 'antd-mobile';
import type { ReactNode } from 'react';
import type { Root } from 'react-dom/client';
import { makeRoot } from './react-root.ts';

// antd-mobile 5 renders Toast, Dialog and Modal with the legacy ReactDOM.render, which React 19 removed:
// without this, Toast.show() renders nothing (ARCHITECTURE.md).
unstableSetRender((node, container) => {
  const holder = container as Element & { __ymRoot?: Root };
  holder.__ymRoot ??= makeRoot(container);
  holder.__ymRoot.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    holder.__ymRoot?.unmount();
    holder.__ymRoot = undefined;
  };
});

export const queryClient = new QueryClient({
  defaultOptions: {
    // Static calls are cached by the server for 60 s; going back to a screen shows it at once.
    queries: { staleTime: 60_000, gcTime: 10 * 60_000, retry: 1, refetchOnWindowFocus: false },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
