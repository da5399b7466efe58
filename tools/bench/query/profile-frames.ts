/**
 * What the query bench's two profile summaries share (profile-summary.ts for CPU,
 * heap-profile-summary.ts for allocation): the request's steps whose inclusive cost they
 * print, and how a call frame is named.
 */

/** Inclusive cost of these functions (by name, any file), to see a request's own steps. */
export const REQUEST_STEPS = [
  'handleRequest',
  'list',
  'indexedTerms',
  'findingListSql',
  'parseQuery',
  'toFindingView',
  'findingSources',
  'from',
  'stringify',
  'serialize',
  'transform',
  'validate',
  'plainToInstance',
  'canActivate',
  'intercept',
  'handleRowDescription',
  'parseDataRow',
  'parseRow',
  'handleDataRow',
  'parseDate',
  'parse',
  'query',
  'call',
  'onCompleted',
  'log',
  'write',
];

/** `function path:line`, the path from node_modules/, apps/, libs/ or tools/ on. */
export function frameKey(frame: { functionName: string; url: string; lineNumber: number }): string {
  const path = frame.url.replace(/^.*\/(node_modules|apps|libs|tools)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${path}:${frame.lineNumber + 1}`;
}
