export * from './domain-error';
export * from './status-map';
export * from './validation';
export * from './http-error';
