// Test support entry (`@platform/report-parsing/testing`): the sample reports and helpers to
// read them in chunks, for specs, e2e tests and benches.
export {
  CORPUS,
  FIXTURES,
  corpusPath,
  collect,
  findingsOf,
  fixture,
  fixturePath,
  oneShot,
  rejectionOf,
} from './report-fixtures';
