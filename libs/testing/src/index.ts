export * from './free-port';
export * from './hs256-jwt';
export * from './test-database';
export * from './test-redis';
export * from './test-run';
export * from './wait-for';
export * from './fuzz';
