#!/usr/bin/env node
/**
 * Lints in-memory sources as files of the workspace, with its ESLint config (eslint.config.mjs):
 * reads `[{ "filePath": "apps/x/src/y.ts", "code": "..." }]` on stdin, prints
 * `[{ "filePath", "messages": [{ "ruleId", "severity", "message" }] }]`. Nothing is written to
 * the tree, so a planted violation never reaches anyone else's lint run.
 */
import { ESLint } from 'eslint';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function readStdin() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return JSON.parse(text);
}

const sources = await readStdin();
const files = sources.map((source) => source.filePath);
const eslint = new ESLint({
  cwd: WORKSPACE,
  // Typed linting of a file that exists only in memory: the TypeScript service's default project.
  overrideConfig: [
    {
      files,
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
