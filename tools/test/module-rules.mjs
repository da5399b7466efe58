#!/usr/bin/env node
/**
 * The module rules of every project, each tool in one process: what
 * `nx run-many -t deps table-owners` checks, for the static checks of `npm test`.
 *
 *   node tools/test/module-rules.mjs          runs them; exits 1 when a project breaks a rule
 *   node tools/test/module-rules.mjs --list   prints the checks it found (JSON)
 *
 * The projects' `deps` and `table-owners` targets (project.json) run
 * `node tools/deps/check-cycles.mjs <root>` and `node tools/lint/table-owners.mjs <root>`, one
 * process per project. Each process spent ~1.3-2 s of CPU loading dependency-cruiser or
 * TypeScript before a few milliseconds of checking: 24 + 2 processes under Nx took 64 s of CPU
 * and 40 s on the 2-core machine. Here every project's case goes to one `--cases` process per
 * tool, which prints for each what a run of its own prints. A target whose command is not of
 * that form is an error, so a new kind of check is not skipped silently.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS = {
  deps: 'tools/deps/check-cycles.mjs',
  'table-owners': 'tools/lint/table-owners.mjs',
};

/** Every project's deps / table-owners target as [{ target, tool, project }]. */
function moduleChecks() {
  const checks = [];
  for (const kind of ['apps', 'libs']) {
    for (const name of readdirSync(join(ROOT, kind)).sort()) {
      const file = join(ROOT, kind, name, 'project.json');
      if (!existsSync(file)) continue;
      const targets = JSON.parse(readFileSync(file, 'utf8')).targets ?? {};
      for (const [target, tool] of Object.entries(TOOLS)) {
        if (!targets[target]) continue;
        const command = targets[target].options?.command ?? targets[target].command;
        const match = /^node (\S+) (\S+)$/.exec(command ?? '');
        if (!match || match[1] !== tool) {
          throw new Error(
            `${file}: target ${target} runs ${JSON.stringify(command)}, not "node ${tool} <root>"`,
          );
        }
        checks.push({ target, tool, project: match[2] });
      }
    }
  }
  return checks;
}

/** Runs one tool's cases in one process: [{ code, output }] in the cases' order. */
function runCases(tool, projects) {
  return new Promise((resolveRun, reject) => {
    const child = execFile(
      process.execPath,
      [tool, '--cases'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${tool} --cases failed: ${stderr || error.message}`));
        try {
          resolveRun(JSON.parse(stdout));
        } catch {
          reject(new Error(`${tool} --cases printed no result: ${stderr}`));
        }
      },
    );
    child.stdin?.end(JSON.stringify(projects.map((project) => ({ project }))));
  });
}

const checks = moduleChecks();
if (process.argv[2] === '--list') {
  process.stdout.write(`${JSON.stringify(checks)}\n`);
} else {
  let broken = 0;
  const results = await Promise.all(
    Object.entries(TOOLS).map(async ([target, tool]) => {
      const mine = checks.filter((check) => check.target === target);
      return {
        mine,
        results: await runCases(
          tool,
          mine.map((check) => check.project),
        ),
      };
    }),
  );
  for (const { mine, results: answers } of results) {
    mine.forEach((check, index) => {
      const { code, output } = answers[index] ?? { code: 2, output: 'no result\n' };
      (code === 0 ? process.stdout : process.stderr).write(output);
      if (code !== 0) {
        broken += 1;
        process.stderr.write(
          `module-rules: ${check.project}:${check.target} failed (exit ${code})\n`,
        );
      }
    });
  }
  process.exitCode = broken > 0 ? 1 : 0;
}
