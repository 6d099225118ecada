// Types of stale.mjs, for the TypeScript that imports it (apps/server/test/built-server.ts).
export declare const stale: (built: string, sources: string[]) => boolean;
