export * from './advisory-lock';
export * from './data-source-options';
export * from './migration-lock';
export * from './migration-lock.errors';
export * from './schema-drift';
export * from './snake-naming.strategy';
