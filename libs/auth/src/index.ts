export * from './password-hash';
export * from './secret-token';
export * from './client-address';
export * from './rate-limiter';
export * from './token-time-claims';
