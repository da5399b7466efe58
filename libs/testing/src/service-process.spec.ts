import { join } from 'node:path';
import { REPOSITORY_ROOT, SWC_NODE_PROJECT } from './service-process';

/** @swc-node/register's reading of a tsconfig (its package exports give no types for it). */
interface SwcNodeTsConfig {
  readDefaultTsConfig(path: string): Record<string, unknown>;
  tsCompilerOptionsToSwcConfig(options: Record<string, unknown>, filename: string): unknown;
}
const { readDefaultTsConfig, tsCompilerOptionsToSwcConfig } = jest.requireActual<SwcNodeTsConfig>(
  '@swc-node/register/read-default-tsconfig',
);

describe('the TypeScript options of a service process started from sources', () => {
  const entry = join(REPOSITORY_ROOT, 'apps/findings-service/src/main.ts');

  it('compile as the workspace’s tsconfig.base.json does', () => {
    const base = readDefaultTsConfig(join(REPOSITORY_ROOT, 'tsconfig.base.json'));
    expect(tsCompilerOptionsToSwcConfig(readDefaultTsConfig(SWC_NODE_PROJECT), entry)).toEqual(
      tsCompilerOptionsToSwcConfig(base, entry),
    );
  });

  it('list one file, not the tree (@swc-node/register hashes the list into every cache key)', () => {
    expect(readDefaultTsConfig(SWC_NODE_PROJECT).files).toEqual([
      join(REPOSITORY_ROOT, 'libs/testing/src/service-process.ts'),
    ]);
  });
});
