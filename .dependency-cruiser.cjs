/**
 * Import rules, checked for every Nx project by its `deps` target (tools/deps/check-cycles.mjs),
 * which `nx run-many -t lint` runs first.
 *
 * Module-scope rules are applied to the project's files: no cycle between files, and the layers
 * of a service's `src/` (docs/architecture.md, "Wiring"), top to bottom:
 *
 *   src/*.ts                 entry points (main, worker, ...): the bundles' entries
 *   src/api/, src/worker/    composition roots of the API and of the worker process
 *   src/database/            data source, entity list, migrations (gathers every module's entities)
 *   src/modules/<feature>/   feature modules
 *   src/app/                 the kernel every module imports (config, errors, access, http, ...)
 *
 * A file imports its own layer or the layers below it, never one above; the two roots do not
 * import each other. Projects laid out otherwise (the plugin runner, the libs) have none of
 * these folders but src/app and are held by the cycle rules.
 *
 * Folder-scope rules are applied to the feature graph: the same files with every feature folder
 * (`collapsePattern`, sub-folders such as `users/dto` included) collapsed into one node, so that
 * `auth -> users/dto` plus `users -> auth` is the cycle it is.
 */
const FEATURE = '^apps/[^/]+/src/modules/[^/]+';

/**
 * `from` is a folder of a service's `src/`; `to` the folders above it there, or a file directly
 * in `src/` (an entry point). `$1` is the service's root, so the rule stays inside one app.
 */
function layerRule(name, from, above, comment) {
  return {
    name,
    severity: 'error',
    comment,
    from: { path: `^(apps/[^/]+)/src/${from}/` },
    to: { path: `^$1/src/(${above.join('|')})/|^$1/src/[^/]+$` },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle between files: move the shared piece down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-feature-cycle',
      severity: 'error',
      comment:
        'No feature folder is part of an import cycle: two features never import each other, ' +
        'directly or through other files. Move the shared piece down (src/app, a lib).',
      scope: 'folder',
      from: { path: `${FEATURE}$` },
      to: { circular: true },
    },
    layerRule(
      'kernel-imports-no-module',
      'app',
      ['modules', 'database', 'api', 'worker'],
      'The kernel (src/app) is the floor: modules import it, and it imports no module, no ' +
        'database wiring, no composition root. Move what gathers from modules up into src/api ' +
        '(or src/worker), or what a module needs down into src/app or a lib.',
    ),
    layerRule(
      'module-imports-no-root',
      'modules',
      ['database', 'api', 'worker'],
      'A module imports other modules below it, the kernel (src/app) and libs, never the ' +
        'composition roots (src/api, src/worker), src/database or an entry point.',
    ),
    layerRule(
      'database-imports-no-root',
      'database',
      ['api', 'worker'],
      'src/database (data source, entity list, migrations) sits under the composition roots ' +
        'that open it.',
    ),
    layerRule(
      'api-imports-no-worker',
      'api',
      ['worker'],
      'The API root and the worker root are two processes: neither imports the other.',
    ),
    layerRule(
      'worker-imports-no-api',
      'worker',
      ['api'],
      'The worker root and the API root are two processes: neither imports the other.',
    ),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|tmp|coverage)/' },
    reporterOptions: { archi: { collapsePattern: FEATURE } },
  },
};
