/**
 * Import cycles, checked for every Nx project by its `deps` target (tools/deps/check-cycles.mjs),
 * which `nx run-many -t lint` runs first.
 *
 * Module-scope rules are applied to the project's files. Folder-scope rules are applied to the
 * feature graph: the same files with every feature folder (`collapsePattern`, sub-folders such
 * as `users/dto` included) collapsed into one node, so that `auth -> users/dto` plus
 * `users -> auth` is the cycle it is.
 */
const FEATURE = '^apps/[^/]+/src/modules/[^/]+';

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
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|tmp|coverage)/' },
    reporterOptions: { archi: { collapsePattern: FEATURE } },
  },
};
