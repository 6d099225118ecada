import type { RuntimeConfig } from '@yueman/contract';

declare global {
  interface Window {
    /** Injected by the server into index.html (docs/api.md section 1); empty bases mean this page's origin. */
    __APP_CONFIG__?: Partial<RuntimeConfig>;
  }
}

export const runtimeConfig: RuntimeConfig = {
  staticApiBase: '',
  dynamicApiBase: '',
  imageBase: '',
  coverKey: '',
  ...(typeof window === 'undefined' ? {} : window.__APP_CONFIG__),
};
