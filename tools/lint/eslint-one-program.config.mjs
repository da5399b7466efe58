// The workspace's ESLint config (eslint.config.mjs) with one TypeScript program for every Node
// project: tools/typecheck/tsconfig.json, the program `npm test`'s type-check builds. The static
// checks (tools/test/static-checks.sh) lint the libraries and the smaller apps with it.
//
// Why: with `projectService` every project's tsconfig gets a program of its own, and each of
// them binds the libraries it imports again (~20 projects). Measured on libs + plugin-runner +
// cli + device-agent (2-core machine, load 4-6): 63.4 s of CPU and 3.8 GB with the project
// service, 37.0 s and 1.6 GB with this one program; same rules, same files. The two services
// gain nothing from it (each is one program already) and the web UIs have their own compiler
// options (DOM, JSX), so those lanes keep the project service.
import base from '../../eslint.config.mjs';

export default [
  ...base,
  {
    files: ['**/*.ts'],
    ignores: ['apps/findings-web/**', 'apps/certificate-web/**', 'libs/web-ui/**'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tools/typecheck/tsconfig.json'],
        tsconfigRootDir: new URL('../..', import.meta.url).pathname,
      },
    },
  },
];
