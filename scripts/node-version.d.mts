// Types of node-version.mjs, for the TypeScript that imports it (apps/server/test/system-deps.test.ts).
export declare const nodeMajorNeeded: number;
export declare function nodeTooOld(version: string): string | undefined;
export declare function requireNode(): void;
