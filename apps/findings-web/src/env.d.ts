/** X.Y of the workspace package, set by vite.config.ts. */
declare const __APP_MAJOR_MINOR__: string;
