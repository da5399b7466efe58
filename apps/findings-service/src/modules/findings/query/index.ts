export * from './query-ast';
export * from './query-field-catalog';
export * from './query-syntax.errors';
export { parseQuery } from './query-parser';
export { compileQuery } from './query-compiler';
export type { CompiledQuery, CompileQueryOptions } from './query-compiler';
export { QueryLexer } from './query-lexer';
export type { QueryToken, QueryOperator } from './query-lexer';
export { containsPattern, escapeLike, globPattern } from './like-pattern';
