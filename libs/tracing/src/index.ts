export * from './tracing-settings';
export * from './request-id-propagator';
export * from './tracing';
export * from './tracing.module';
