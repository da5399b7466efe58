import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettierRecommended from 'eslint-plugin-prettier/recommended';
import reactHooks from 'eslint-plugin-react-hooks';

export default [
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/tmp',
      '**/coverage',
      'docs/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // generated from docs/openapi/findings-service.json by the findings-web generate-api target
      'apps/findings-web/src/api/schema.gen.ts',
      // generated from docs/openapi/certificate-service.json by the certificate-web generate-api target
      'apps/certificate-web/src/api/schema.gen.ts',
      // generated from both docs/openapi documents by apps/cli/tools/generate-api.sh (committed)
      'apps/cli/src/api/*.gen.ts',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              // The findings service is the plugin runner's client and installs plugins: it uses
              // the runner's contract (@platform/plugin-protocol) and the SDK's manifest,
              // signature and artifact checks (@platform/plugin-sdk), the scope:plugins libs.
              sourceTag: 'scope:findings',
              onlyDependOnLibsWithTags: ['scope:findings', 'scope:plugins', 'scope:shared'],
            },
            {
              sourceTag: 'scope:certificates',
              onlyDependOnLibsWithTags: ['scope:certificates', 'scope:shared'],
            },
            {
              sourceTag: 'scope:plugins',
              onlyDependOnLibsWithTags: ['scope:plugins', 'scope:shared'],
            },
            // The CLI (apps/cli) talks to both services over HTTP only: shared libraries at most.
            { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  // One logging style in both services (docs/architecture.md, Logging): a class logs through a
  // static `new Logger('<Context>')` of @nestjs/common built as a field, never an injected
  // PinoLogger; the process logger is nestjs-pino's, wired once by @platform/logging.
  {
    files: ['apps/findings-service/**/*.ts', 'apps/certificate-service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'nestjs-pino',
              message:
                "Log with a class field `private readonly logger = new Logger('<Context>')` of @nestjs/common (docs/architecture.md, Logging).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'tools/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // The web UIs and their shared library (React): the rules of hooks.
  {
    ...reactHooks.configs.flat.recommended,
    files: [
      'apps/findings-web/**/*.tsx',
      'apps/findings-web/**/*.ts',
      'apps/certificate-web/**/*.tsx',
      'apps/certificate-web/**/*.ts',
      'libs/web-ui/**/*.tsx',
      'libs/web-ui/**/*.ts',
    ],
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // Advice for the React Compiler, which the UI does not use (TanStack Virtual trips it).
      'react-hooks/incompatible-library': 'off',
    },
  },
  // Formatting is part of lint: a file prettier would change fails `nx run-many -t lint`.
  prettierRecommended,
];
