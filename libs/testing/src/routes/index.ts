export * from './controller-routes';
export * from './served-routes';
export * from './documented-successes';
export * from './undeclared-route.module';
