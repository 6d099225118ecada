// Types of chromium.mjs, for the Playwright configs (TypeScript).
export declare const chromiumPath: string;
export declare const headlessShellPath: string;
export declare const chromiumArgs: string[];
