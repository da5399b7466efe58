export * from './logger-options';
export * from './request-id';
