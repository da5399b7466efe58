export * from './registry';
export * from './http-metrics';
export * from './fastify-hooks';
export * from './metrics-server';
export * from './metrics-listener';
export * from './periodic-collector';
