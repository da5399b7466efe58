#!/usr/bin/env bash
# The static checks `npm test` runs before Jest: every project's module rules (import cycles,
# table owners), ESLint over every project and a type-check of every project.
#
# Run as few processes as the work needs. `nx run-many -t lint typecheck` ran ~40 processes,
# and each ESLint and tsc process built its own TypeScript program over the project and every
# library it imports (the libraries were parsed and checked ~20 times): 7 min on the 2-core
# machine. Here one tsc program checks every Node project (tools/typecheck/tsconfig.json; all of
# them share tsconfig.base.json's options) and the web UI has its own (DOM, JSX); ESLint runs
# in two processes, one per core. The per-project targets (`nx run <project>:lint`,
# `:typecheck`) stay for working on one project; they check the same files with the same rules.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The web UIs' generated API clients, which their type-checks and lint read (this Nx run also
# leaves the project graph that ESLint's @nx/enforce-module-boundaries reads), then every
# project's module rules — import cycles and layers, table owners — each tool in one process
# (tools/test/module-rules.mjs: what `nx run-many -t deps table-owners` checks; its 26
# processes took 64 s of CPU, one process per tool ~21 s).
npx nx run-many -t generate-api -p findings-web certificate-web --outputStyle=static
node tools/test/module-rules.mjs

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT
# check <name> <command...>: runs one check; prints its wall time and the CPU it and its children
# used (bash's `times`, in this lane's shell: its waited-for children), so the lanes can be
# balanced from any run's log.
check() {
  local name="$1" started=$SECONDS
  shift
  times >"$status_dir/$name.before"
  if "$@"; then echo ok >"$status_dir/$name"; else echo "static-checks: $name failed" >&2; fi
  times >"$status_dir/$name.after"
  echo "static-checks: $name $((SECONDS - started)) s, $(children_cpu "$status_dir/$name") s of CPU" >&2
}
# children_cpu <prefix>: the children's user + system seconds between <prefix>.before and .after.
children_cpu() {
  awk 'FNR == 2 { n = split($0, t, " "); s = 0
      for (i = 1; i <= n; i++) { split(t[i], p, "m"); sub(/s$/, "", p[2]); s += p[1] * 60 + p[2] }
      v[++k] = s }
    END { printf "%.1f", v[2] - v[1] }' "$1.before" "$1.after"
}

# Two lanes of roughly equal CPU. Measured in a fresh-clone npm test (1 Dec 2026, wall seconds
# on a quiet machine, about the CPU seconds): ESLint over the two services 47, over the web UIs
# and their library 44, over the rest 30 (63 s of CPU before it ran as one program, below);
# tsc over every Node project 31, the four web tscs 37; the format check 32 (split in halves).
# ESLint's type-aware rules keep every project's TypeScript program in one heap: over the rest
# of the repository in one process that passed Node's default 4 GB once the certificate UI
# landed (an out-of-memory abort), so the two web UIs and their library lint in a process of
# their own, and each process may grow to 6 GB (this machine kind has 24 GiB).
#
# Formatting is checked by prettier itself over the files ESLint lints (`format` below) and the
# ESLint lanes turn their prettier rule off: inside ESLint the rule cost 15.5 s of CPU on the
# certificate service's 717 files (35.7 s with it, 20.2 s without), `prettier --check` of the same
# files 10.7 s. Same prettier, same config and .prettierignore; `nx run <project>:lint` keeps the rule.
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--max-old-space-size=6144"
no_prettier=(--rule 'prettier/prettier: off')
# The TypeScript files ESLint lints (eslint.config.mjs: not the generated API clients).
lint_files() {
  git ls-files --cached --others --exclude-standard -- apps libs deploy tools/images |
    grep -E '\.tsx?$' | grep -vE '(^|/)(dist|node_modules|tmp|coverage)/' |
    grep -vE '^apps/(findings|certificate)-web/src/api/schema\.gen\.ts$|^apps/cli/src/api/[^/]*\.gen\.ts$'
}
# format_check <part> <parts>: every <parts>-th of those files, from the <part>-th (1-based), so
# the format check can be split between the two lanes.
format_check() {
  local files
  files="$(lint_files | awk -v part="$1" -v parts="$2" 'NR % parts == part % parts')" || return 1
  [ -n "$files" ] || { echo "static-checks: no files to check the format of" >&2; return 1; }
  # (the local binary: npx exits 249 without a word when given the ~2 500 paths)
  # shellcheck disable=SC2086 # one path per line, none with spaces (git ls-files of the tree)
  node_modules/.bin/prettier --check --log-level warn $files
}
{
  check lint-services npx eslint apps/findings-service apps/certificate-service --max-warnings=0 \
    "${no_prettier[@]}"
  check lint-web npx eslint apps/findings-web apps/certificate-web libs/web-ui --max-warnings=0 \
    "${no_prettier[@]}"
  check format-1 format_check 1 2
} &
lane1=$!
{
  check typecheck npx tsc -p tools/typecheck/tsconfig.json
  check typecheck-web npx tsc -p apps/findings-web/tsconfig.json --noEmit
  # The certificate UI (DOM, JSX), its browser tests (Node) and the shared UI library.
  check typecheck-certificate-web npx tsc -p apps/certificate-web/tsconfig.json --noEmit
  check typecheck-certificate-web-e2e npx tsc -p apps/certificate-web/e2e/tsconfig.json
  check typecheck-web-ui npx tsc -p libs/web-ui/tsconfig.json --noEmit
  # deploy/images/*.Containerfile say what the image recipe says (tools/images/images.json).
  check containerfiles node tools/images/containerfiles.mjs --check
  check format-2 format_check 2 2
  # The libraries and the smaller apps in one TypeScript program (tools/lint/eslint-one-program.config.mjs:
  # with the project service each of their ~20 projects bound the libraries again).
  check lint-rest npx eslint -c tools/lint/eslint-one-program.config.mjs apps libs deploy tools/images --max-warnings=0 \
    "${no_prettier[@]}" --ignore-pattern 'apps/findings-service/**' --ignore-pattern 'apps/certificate-service/**' \
    --ignore-pattern 'apps/findings-web/**' --ignore-pattern 'apps/certificate-web/**' \
    --ignore-pattern 'libs/web-ui/**'
} &
lane2=$!
wait "$lane1" "$lane2" || true

for name in lint-services lint-web format-1 format-2 typecheck typecheck-web typecheck-certificate-web \
  typecheck-certificate-web-e2e typecheck-web-ui containerfiles lint-rest; do
  [ -f "$status_dir/$name" ] || exit 1
done
echo "static-checks: lint and typecheck of every project passed"
