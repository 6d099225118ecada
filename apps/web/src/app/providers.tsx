import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { unstableSetRender } from 'antd-mobile';
import type { ReactNode } from 'react';
import { render, unmount } from '../lib/antd-default-render.ts';

// antd-mobile 5 renders Toast, Dialog and Modal with the legacy ReactDOM.render, which React 19 removed:
// without this, Toast.show() renders nothing (ARCHITECTURE.md). One root per container, kept by the same functions
// the build puts in place of rc-util's legacy renderer; unmounted a task later, as antd-mobile expects.
unstableSetRender((node, container) => {
  render(node, container);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await unmount(container);
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
