import { execFile } from 'node:child_process';
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');

interface ModuleCheck {
  target: string;
  tool: string;
  project: string;
}

/** Every project's target of that name, read from the project.json files. */
function projectsWithTarget(target: string): string[] {
  return ['apps', 'libs'].flatMap((kind) =>
    readdirSync(join(WORKSPACE, kind))
      .map((name) => `${kind}/${name}`)
      .filter((root) => {
        const file = join(WORKSPACE, root, 'project.json');
        if (!existsSync(file)) return false;
        const project = JSON.parse(readFileSync(file, 'utf8')) as { targets?: object };
        return target in (project.targets ?? {});
      }),
  );
}

describe("the static checks' module rules (tools/test/module-rules.mjs)", () => {
  it('finds every deps and table-owners target of the workspace, each on its own project', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['tools/test/module-rules.mjs', '--list'],
      { cwd: WORKSPACE },
    );
    const checks = JSON.parse(stdout) as ModuleCheck[];
    const of = (target: string) =>
      checks.filter((check) => check.target === target).map((check) => check.project);

    expect(of('deps').sort()).toEqual(projectsWithTarget('deps').sort());
    expect(of('table-owners').sort()).toEqual(projectsWithTarget('table-owners').sort());
    // The services' rules are among them (a discovery that found nothing would pass above only
    // if the workspace had no such targets).
    expect(of('table-owners')).toEqual(
      expect.arrayContaining(['apps/certificate-service', 'apps/findings-service']),
    );
    expect(of('deps').length).toBeGreaterThanOrEqual(20);
    for (const check of checks) {
      expect(check.tool).toBe(
        check.target === 'deps' ? 'tools/deps/check-cycles.mjs' : 'tools/lint/table-owners.mjs',
      );
    }
  });
});
