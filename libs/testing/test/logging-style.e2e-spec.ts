import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');

interface LintedSource {
  filePath: string;
  messages: { ruleId: string | null; severity: number; message: string }[];
}

/**
 * Lints sources that exist only in memory, placed in the tree, with the workspace's config.
 * Untyped (`--untyped`): no-restricted-imports needs no type information, and a TypeScript
 * program for the planted files cost ~13 s of CPU.
 */
async function lintPlanted(sources: { filePath: string; code: string }[]): Promise<LintedSource[]> {
  const run = promisify(execFile)(process.execPath, ['tools/lint/lint-text.mjs', '--untyped'], {
    cwd: WORKSPACE,
    maxBuffer: 10 * 1024 * 1024,
  });
  run.child.stdin?.end(JSON.stringify(sources));
  return JSON.parse((await run).stdout) as LintedSource[];
}

const INJECTED = `import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';

@Injectable()
export class Planted {
  constructor(private readonly logger: PinoLogger) {}

  run(): void {
    this.logger.info({ n: 1 }, 'planted');
  }
}
`;

const STATIC = `import { Injectable, Logger } from '@nestjs/common';

@Injectable()
export class Planted {
  private readonly logger = new Logger('Planted');

  run(): void {
    this.logger.log({ n: 1 }, 'planted');
  }
}
`;

describe('lint keeps one logging style in both services (no injected PinoLogger)', () => {
  let results: Map<string, LintedSource>;

  beforeAll(async () => {
    const linted = await lintPlanted([
      { filePath: 'apps/certificate-service/src/modules/planted-injected.ts', code: INJECTED },
      { filePath: 'apps/findings-service/src/modules/planted-injected.ts', code: INJECTED },
      { filePath: 'apps/certificate-service/src/modules/planted-static.ts', code: STATIC },
      { filePath: 'apps/findings-service/src/modules/planted-static.ts', code: STATIC },
    ]);
    results = new Map(linted.map((r) => [r.filePath, r]));
  }, 480_000);

  const rules = (filePath: string) =>
    (results.get(filePath)?.messages ?? []).map((m) => m.ruleId ?? m.message);

  it.each(['certificate-service', 'findings-service'])(
    '%s: an injected PinoLogger is refused',
    (service) => {
      const messages = results.get(`apps/${service}/src/modules/planted-injected.ts`)?.messages;
      expect(messages).toContainEqual(
        expect.objectContaining({
          ruleId: 'no-restricted-imports',
          severity: 2,
          message: expect.stringContaining("new Logger('<Context>')"),
        }),
      );
    },
  );

  it.each(['certificate-service', 'findings-service'])(
    '%s: a static Logger field passes',
    (service) => {
      expect(rules(`apps/${service}/src/modules/planted-static.ts`)).toEqual([]);
    },
  );
});
