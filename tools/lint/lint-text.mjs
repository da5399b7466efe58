#!/usr/bin/env node
/**
 * Lints in-memory sources as files of the workspace, with its ESLint config (eslint.config.mjs):
 * reads `[{ "filePath": "apps/x/src/y.ts", "code": "..." }]` on stdin, prints
 * `[{ "filePath", "messages": [{ "ruleId", "severity", "message" }] }]`. Nothing is written to
 * the tree, so a planted violation never reaches anyone else's lint run.
 *
 *   node tools/lint/lint-text.mjs            typed linting, every rule of the workspace
 *   node tools/lint/lint-text.mjs --untyped  the workspace's rules that need no type information
 *
 * Typed linting of a file that exists only in memory builds a TypeScript program for it (the
 * project service's default project: the file and everything it imports), ~10 s of CPU for a few
 * planted imports. A caller whose rules need no types (@nx/enforce-module-boundaries,
 * no-restricted-imports, eqeqeq, ...) passes --untyped: typescript-eslint's disableTypeChecked
 * turns off the rules that need a program and parses without one; every other rule of the
 * workspace config still applies to the planted files.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const untyped = process.argv.includes('--untyped');

async function readStdin() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return JSON.parse(text);
}

// @nx/enforce-module-boundaries reads the cached project graph and skips itself (with a warning
// on stdout) when there is none yet — a fresh clone before any Nx command. Build it then.
const devkit = createRequire(import.meta.url)('@nx/devkit');
try {
  devkit.readCachedProjectGraph();
} catch {
  await devkit.createProjectGraphAsync({ exitOnError: false });
}

const sources = await readStdin();
const files = sources.map((source) => source.filePath);
const eslint = new ESLint({
  cwd: WORKSPACE,
  overrideConfig: untyped
    ? [{ ...tseslint.configs.disableTypeChecked, files }]
    : [
        {
          files,
          // Typed linting of a file that exists only in memory: the TypeScript service's default project.
          languageOptions: { parserOptions: { projectService: { allowDefaultProject: files } } },
        },
      ],
});
const results = [];
for (const { filePath, code } of sources) {
  const [result] = await eslint.lintText(code, { filePath });
  results.push({
    filePath,
    messages: result.messages.map(({ ruleId, severity, message }) => ({
      ruleId,
      severity,
      message,
    })),
  });
}
process.stdout.write(JSON.stringify(results));
