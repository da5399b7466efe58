export * from './build-info';
