export * from './free-port';
export * from './test-database';
export * from './test-redis';
export * from './test-run';
