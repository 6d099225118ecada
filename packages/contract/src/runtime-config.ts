import { type Static, Type } from 'typebox';

/** Injected by the server into index.html as window.__APP_CONFIG__; empty bases mean the page's own origin. */
export const RuntimeConfig = Type.Object({
  staticApiBase: Type.String(),
  dynamicApiBase: Type.String(),
  imageBase: Type.String(),
  /** 64 hex characters: the AES-256-GCM key of the encrypted covers. */
  coverKey: Type.String(),
});
export type RuntimeConfig = Static<typeof RuntimeConfig>;
