import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The CLI's typed clients are generated from the shipped contracts (docs/openapi/*.json) and
// committed. Regenerated here into a temporary directory: a contract change without
// `bash apps/cli/tools/generate-api.sh` (which `npm run openapi` runs) fails this test, and the
// regenerated types then fail the CLI's type-check wherever it uses what changed.
const API_DIR = join(__dirname, '..', 'src', 'api');

let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'cli-api-'));
  execFileSync('bash', [join(__dirname, '..', 'tools', 'generate-api.sh')], {
    env: { ...process.env, OUT_DIR: out },
    stdio: 'pipe',
  });
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

it.each(['findings.gen.ts', 'certificates.gen.ts'])(
  'src/api/%s is what the contract generates',
  (file) => {
    const fresh = readFileSync(join(out, file), 'utf8');
    const committed = readFileSync(join(API_DIR, file), 'utf8');
    if (fresh !== committed) {
      throw new Error(
        `apps/cli/src/api/${file} is stale: run bash apps/cli/tools/generate-api.sh (or npm run openapi)`,
      );
    }
  },
);
