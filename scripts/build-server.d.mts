// Types of build-server.mjs, for the TypeScript that imports it (apps/server/test/built-server.ts).
export declare const serverSources: string[];
export declare function buildServer(options?: { quiet?: boolean }): Promise<void>;
