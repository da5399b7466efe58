/** X.Y of the workspace package, set by vite.config.ts. */
declare const __APP_MAJOR_MINOR__: string;
/** The workspace package's version (X.Y.Z), set by vite.config.ts. */
declare const __APP_VERSION__: string;
