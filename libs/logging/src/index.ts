export * from './database-error';
export * from './log-file-sink';
export * from './logged-error';
export * from './logger-options';
export * from './redact-secrets';
export * from './request-id';
export * from './secret-fields';
