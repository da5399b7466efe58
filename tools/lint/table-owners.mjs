#!/usr/bin/env node
/**
 * One owner per table: fails when a source file outside a table's owning module writes it.
 *
 *   node tools/lint/table-owners.mjs <project-root> [--base-dir <dir>] [--list]
 *   node tools/lint/table-owners.mjs --cases < cases.json
 *
 * The owners are read from one place, the "Table owners" list of docs/architecture.md: the
 * Markdown table between `<!-- table-owners <project-root> -->` and `<!-- /table-owners -->`,
 * whose first cell names tables (in backticks) and whose second cell starts with the owning
 * feature folder (`modules/<feature>`). Foreign writes that are allowed all the same are listed
 * in the table between `<!-- foreign-writes <project-root> -->` and `<!-- /foreign-writes -->`
 * (first cell the file from the workspace root, second the tables, then why).
 *
 * What is checked, over `<project-root>/src/**\/*.ts` (unit specs and migrations left out):
 * 1. the list against the code: every `@Entity` names its table; every such table is listed
 *    once, its owner being the feature folder that declares the entity; no table is listed
 *    that no entity declares;
 * 2. SQL writes: every string or template literal (a template's substitutions as holes) is
 *    searched for `INSERT INTO t`, `UPDATE [ONLY] t` (not `FOR UPDATE`, `DO UPDATE`),
 *    `DELETE FROM t`, `COPY t [(...)] FROM`, `TRUNCATE [TABLE] t[, u]`, `MERGE INTO t`, with
 *    optional quotes and schema;
 * 3. TypeORM writes: `save/insert/update/delete/upsert/remove/softDelete/softRemove/restore/
 *    recover/increment/decrement/clear` on a repository of an entity (`Repository<E>`,
 *    `@InjectRepository(E)`, `x.getRepository(E)`, also inside a query-builder chain), an
 *    entity manager's write with the entity class first (`manager.save(E, ...)`), and query
 *    builders' `.into(E)` and `.delete()...from(E)`.
 * A write is foreign when the file is not under `src/modules/<owner>/`.
 *
 * Exits 1 when the list and the code disagree or a foreign write is found. `--list` prints
 * every write (owner's and foreign) instead and exits 0. `--base-dir` checks another tree laid
 * out like the workspace (the planted-violation tests use it).
 *
 * `--cases` runs several checks in one process (the tests: a process's start, TypeScript's
 * load most of it, costs more than checking a planted tree): it reads
 * `[{ "project", "baseDir"? }]` on stdin and prints `[{ "code", "output" }]`, for each case the
 * exit code and what a run of its own would print.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// Required, not imported: an ESM import of the CommonJS TypeScript first scans its 9 MB for
// export names and module syntax, ~0.4 s of CPU a process.
const ts = createRequire(import.meta.url)('typescript');

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = 'docs/architecture.md';

const WRITE_METHODS = new Set([
  'save',
  'insert',
  'update',
  'delete',
  'upsert',
  'remove',
  'softDelete',
  'softRemove',
  'restore',
  'recover',
  'increment',
  'decrement',
  'clear',
]);
const REPOSITORY_TYPES = new Set(['Repository', 'TreeRepository']);

function parseArgs(argv) {
  const args = [...argv];
  let baseDir = WORKSPACE;
  const flag = args.indexOf('--base-dir');
  if (flag >= 0) {
    baseDir = resolve(args[flag + 1] ?? '');
    args.splice(flag, 2);
  }
  const list = args.indexOf('--list');
  if (list >= 0) args.splice(list, 1);
  if (args.length !== 1) {
    throw new Error('usage: table-owners.mjs <project-root> [--base-dir <dir>] [--list]');
  }
  return { project: args[0].replace(/\/+$/, ''), baseDir, list: list >= 0 };
}

// ---------------------------------------------------------------------------------------------
// The list in docs/architecture.md

/** Rows of the Markdown table between `<!-- <marker> <project> -->` and `<!-- /<marker> -->`. */
function markedRows(doc, marker, project) {
  const open = `<!-- ${marker} ${project} -->`;
  const start = doc.indexOf(open);
  if (start < 0) return null;
  const end = doc.indexOf(`<!-- /${marker} -->`, start);
  if (end < 0) throw new Error(`${DOC}: ${open} is not closed by <!-- /${marker} -->`);
  return doc
    .slice(start + open.length, end)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .slice(1) // the header
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

const codeSpans = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

/** `{ owners: Map<table, feature>, allowed: Map<file, Set<table>>, errors }` */
function readOwnerList(baseDir, project) {
  const errors = [];
  const path = join(baseDir, DOC);
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const rows = markedRows(doc, 'table-owners', project);
  const owners = new Map();
  if (rows === null) {
    errors.push(`${DOC}: no owner list for ${project} (<!-- table-owners ${project} -->)`);
    return { owners, allowed: new Map(), errors };
  }
  for (const [tables = '', owner = ''] of rows) {
    const feature = /^`modules\/([^`/]+)`/.exec(owner)?.[1];
    if (!feature) {
      errors.push(`${DOC}: owner "${owner}" of ${tables} is not a \`modules/<feature>\``);
      continue;
    }
    for (const table of codeSpans(tables)) {
      if (owners.has(table)) errors.push(`${DOC}: table ${table} is listed twice for ${project}`);
      owners.set(table, feature);
    }
  }
  const allowed = new Map();
  for (const [file = '', tables = ''] of markedRows(doc, 'foreign-writes', project) ?? []) {
    const [path] = codeSpans(file);
    if (!path) continue;
    allowed.set(path, new Set(codeSpans(tables)));
  }
  return { owners, allowed, errors };
}

// ---------------------------------------------------------------------------------------------
// Source files

function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'migrations') walk(path);
      } else if (
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.d.ts') &&
        !entry.name.endsWith('.spec.ts')
      ) {
        files.push(path);
      }
    }
  };
  if (existsSync(root)) walk(root);
  return files.sort();
}

/** The feature folder of a file (`src/modules/<feature>/...`), or null. */
const featureOf = (file) => /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;

const stringArg = (node) =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;

function decoratorsOf(node) {
  return ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
}

const decoratorCall = (decorator, name) =>
  ts.isCallExpression(decorator.expression) &&
  ts.isIdentifier(decorator.expression.expression) &&
  decorator.expression.expression.text === name
    ? decorator.expression
    : null;

/** Entity classes a file declares: class name -> table. */
function declaredEntities(source) {
  const entities = new Map();
  const unnamed = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name) continue;
    for (const decorator of decoratorsOf(statement)) {
      const call = decoratorCall(decorator, 'Entity');
      if (!call) continue;
      const [first] = call.arguments;
      let table = stringArg(first);
      if (table === null && first && ts.isObjectLiteralExpression(first)) {
        const name = first.properties.find(
          (p) => ts.isPropertyAssignment(p) && p.name.getText(source) === 'name',
        );
        table = name ? stringArg(name.initializer) : null;
      }
      if (table === null) unnamed.push(statement.name.text);
      else entities.set(statement.name.text, table);
    }
  }
  return { entities, unnamed };
}

/** Names a file re-exports: `export { A as B } from './x'` and `export * from './x'`. */
function reExports(source) {
  const named = [];
  const star = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const from = stringArg(statement.moduleSpecifier);
    if (!from) continue;
    if (!statement.exportClause) star.push(from);
    else if (ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        named.push({
          from,
          name: (element.propertyName ?? element.name).text,
          as: element.name.text,
        });
      }
    }
  }
  return { named, star };
}

function resolveImport(fromFile, specifier, known) {
  if (!specifier.startsWith('.')) return null;
  const base = posix.join(posix.dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// SQL writes in string and template literals

const IDENT = String.raw`"?[a-z_][a-z0-9_]*"?`;
/** A table name, optionally quoted and schema-qualified; the bare name is captured. */
const NAME = String.raw`(?:${IDENT}\s*\.\s*)?"?([a-z_][a-z0-9_]*)"?`;
/** The same, `ONLY` allowed, nothing captured (the list of a TRUNCATE). */
const LISTED = String.raw`(?:only\s+)?(?:${IDENT}\s*\.\s*)?${IDENT}`;
const SQL_WRITES = [
  { kind: 'INSERT', pattern: new RegExp(String.raw`\binsert\s+into\s+${NAME}`, 'gi') },
  { kind: 'MERGE', pattern: new RegExp(String.raw`\bmerge\s+into\s+(?:only\s+)?${NAME}`, 'gi') },
  {
    kind: 'UPDATE',
    // Not the locking clauses `FOR [NO KEY] UPDATE` nor an upsert's `DO UPDATE`.
    pattern: new RegExp(
      String.raw`(?<!\bfor\s+(?:no\s+key\s+)?)(?<!\bdo\s+)\bupdate\s+(?:only\s+)?${NAME}`,
      'gi',
    ),
  },
  { kind: 'DELETE', pattern: new RegExp(String.raw`\bdelete\s+from\s+(?:only\s+)?${NAME}`, 'gi') },
  {
    kind: 'COPY',
    // `COPY t [(columns)] FROM`; `COPY t TO` and `COPY (SELECT ...) TO` read.
    pattern: new RegExp(String.raw`\bcopy\s+${NAME}\s*(?:\([^)]*\)\s*)?from\b`, 'gi'),
  },
];
const TRUNCATE = new RegExp(
  String.raw`\btruncate\s+(?:table\s+)?(${LISTED}(?:\s*,\s*${LISTED})*)`,
  'gi',
);

/** The text of a literal; a template's substitutions become a hole that names no table. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return (
      node.head.text + node.templateSpans.map((span) => ` \u0000 ${span.literal.text}`).join('')
    );
  }
  return null;
}

function sqlWrites(text) {
  const writes = [];
  for (const { kind, pattern } of SQL_WRITES) {
    for (const match of text.matchAll(pattern)) {
      writes.push({ kind, table: match[1].toLowerCase() });
    }
  }
  for (const match of text.matchAll(TRUNCATE)) {
    for (const part of match[1].split(',')) {
      const table = /"?([a-z_][a-z0-9_]*)"?\s*$/i.exec(part.trim())?.[1];
      if (table) writes.push({ kind: 'TRUNCATE', table: table.toLowerCase() });
    }
  }
  return writes;
}

// ---------------------------------------------------------------------------------------------
// TypeORM writes

const typeName = (type) => (type && ts.isTypeReferenceNode(type) ? type.typeName.getText() : null);

/** `Repository<E>` -> E (as written). */
function repositoryEntity(type) {
  if (!type || !ts.isTypeReferenceNode(type)) return null;
  const name = type.typeName.getText();
  if (!REPOSITORY_TYPES.has(name.replace(/^.*\./, ''))) return null;
  const [argument] = type.typeArguments ?? [];
  return argument ? typeName(argument) : null;
}

function findWrites(path, source, entityOf) {
  const writes = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  /** Names bound to a repository of an entity: property, parameter or variable -> table. */
  const repositories = new Map();
  const tableOfEntityExpression = (node) => {
    if (!node) return null;
    if (ts.isIdentifier(node)) return entityOf(node.text);
    return null;
  };

  // Pass 1: repository bindings.
  const bind = (node) => {
    if (
      (ts.isPropertyDeclaration(node) || ts.isParameter(node) || ts.isVariableDeclaration(node)) &&
      ts.isIdentifier(node.name)
    ) {
      let table = null;
      const entity = repositoryEntity(node.type);
      if (entity) table = entityOf(entity);
      for (const decorator of decoratorsOf(node)) {
        const call = decoratorCall(decorator, 'InjectRepository');
        if (call) table = tableOfEntityExpression(call.arguments[0]) ?? table;
      }
      const init = node.initializer;
      if (!table && init) table = repositoryOfExpression(init);
      if (!table && init && ts.isArrowFunction(init)) table = returnedRepository(init);
      if (table) repositories.set(node.name.text, table);
    }
    if ((ts.isGetAccessorDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
      const table = returnedRepository(node);
      if (table && ts.isIdentifier(node.name)) repositories.set(node.name.text, table);
    }
    ts.forEachChild(node, bind);
  };

  /** The repository a getter, method or arrow function returns (`return x.getRepository(E)`). */
  function returnedRepository(fn) {
    const body = fn.body;
    if (!body) return null;
    if (!ts.isBlock(body)) return repositoryOfExpression(body);
    for (const statement of body.statements) {
      if (ts.isReturnStatement(statement) && statement.expression) {
        const table = repositoryOfExpression(statement.expression);
        if (table) return table;
      }
    }
    return null;
  }

  /** The table of a repository expression: `x.getRepository(E)`, a bound name, `this.name`. */
  function repositoryOfExpression(node) {
    let current = node;
    while (current) {
      if (
        ts.isAwaitExpression(current) ||
        ts.isParenthesizedExpression(current) ||
        ts.isNonNullExpression(current) ||
        ts.isAsExpression(current)
      ) {
        current = current.expression;
        continue;
      }
      if (ts.isBinaryExpression(current)) {
        return repositoryOfExpression(current.left) ?? repositoryOfExpression(current.right);
      }
      if (ts.isConditionalExpression(current)) {
        return (
          repositoryOfExpression(current.whenTrue) ?? repositoryOfExpression(current.whenFalse)
        );
      }
      if (ts.isIdentifier(current)) return repositories.get(current.text) ?? null;
      if (ts.isPropertyAccessExpression(current)) {
        if (current.expression.kind === ts.SyntaxKind.ThisKeyword) {
          return repositories.get(current.name.text) ?? null;
        }
        current = current.expression;
        continue;
      }
      if (ts.isCallExpression(current)) {
        const callee = current.expression;
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'getRepository') {
          return tableOfEntityExpression(current.arguments[0]) ?? stringArg(current.arguments[0]);
        }
        current = callee;
        continue;
      }
      return null;
    }
    return null;
  }

  /** Whether a call chain below `node` calls one of `names` (`.delete()` before `.from(E)`). */
  function chainCalls(node, names) {
    let current = node;
    while (current) {
      if (ts.isCallExpression(current)) {
        const callee = current.expression;
        if (ts.isPropertyAccessExpression(callee) && names.has(callee.name.text)) return true;
        current = callee;
      } else if (ts.isPropertyAccessExpression(current)) current = current.expression;
      else return false;
    }
    return false;
  }

  const visit = (node) => {
    const text = literalText(node);
    if (text !== null) {
      for (const write of sqlWrites(text)) writes.push({ ...write, line: line(node) });
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const receiver = node.expression.expression;
      const first = node.arguments[0];
      let table = null;
      if (WRITE_METHODS.has(method)) {
        table = tableOfEntityExpression(first) ?? repositoryOfExpression(receiver);
      } else if (method === 'into') {
        table = tableOfEntityExpression(first) ?? stringArg(first);
      } else if (method === 'from' && chainCalls(receiver, new Set(['delete', 'softDelete']))) {
        table = tableOfEntityExpression(first) ?? stringArg(first);
      }
      if (table) writes.push({ kind: `TypeORM ${method}`, table, line: line(node) });
    }
    ts.forEachChild(node, visit);
  };

  // Twice: a binding may use one declared further down (a getter over an injected repository).
  bind(source);
  bind(source);
  visit(source);
  return writes.map((write) => ({ ...write, file: path }));
}

// ---------------------------------------------------------------------------------------------

/** One project's check: `{ code, output }`, the exit code and what the run prints. */
function check({ project, baseDir, list }) {
  let output = '';
  const root = join(baseDir, project);
  const files = sourceFiles(join(root, 'src')).map((file) =>
    relative(root, file).split('\\').join('/'),
  );
  const known = new Set(files);
  const sources = new Map(
    files.map((file) => [
      file,
      ts.createSourceFile(
        file,
        readFileSync(join(root, file), 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      ),
    ]),
  );

  const errors = [];
  /** file -> (class -> table) of declared entities; table -> declaring files. */
  const declared = new Map();
  const entityFiles = new Map();
  for (const [file, source] of sources) {
    const { entities, unnamed } = declaredEntities(source);
    for (const name of unnamed) {
      errors.push(`${project}/${file}: @Entity ${name} names no table (give it one)`);
    }
    declared.set(file, entities);
    for (const table of entities.values()) {
      entityFiles.set(table, [...(entityFiles.get(table) ?? []), file]);
    }
  }

  /** What a module exports as entities, re-exports followed: exported name -> table. */
  const exportCache = new Map();
  const exportedEntities = (file, seen = new Set()) => {
    if (exportCache.has(file)) return exportCache.get(file);
    if (seen.has(file)) return new Map();
    seen.add(file);
    const result = new Map(declared.get(file) ?? []);
    const { named, star } = reExports(sources.get(file));
    for (const { from, name, as } of named) {
      const target = resolveImport(file, from, known);
      const table = target ? exportedEntities(target, seen).get(name) : undefined;
      if (table) result.set(as, table);
    }
    for (const from of star) {
      const target = resolveImport(file, from, known);
      if (target)
        for (const [name, table] of exportedEntities(target, seen)) result.set(name, table);
    }
    exportCache.set(file, result);
    return result;
  };

  const writes = [];
  for (const [file, source] of sources) {
    const local = new Map(declared.get(file));
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
      const target = resolveImport(file, stringArg(statement.moduleSpecifier) ?? '', known);
      if (!target) continue;
      const bindings = statement.importClause.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const exported = exportedEntities(target);
      for (const element of bindings.elements) {
        const table = exported.get((element.propertyName ?? element.name).text);
        if (table) local.set(element.name.text, table);
      }
    }
    writes.push(...findWrites(file, source, (name) => local.get(name) ?? null));
  }

  const { owners, allowed, errors: listErrors } = readOwnerList(baseDir, project);
  errors.push(...listErrors);
  if (list) {
    for (const write of writes.filter((w) => owners.has(w.table) || entityFiles.has(w.table))) {
      const owner = owners.get(write.table) ?? featureOf(entityFiles.get(write.table)[0]);
      const mark = featureOf(write.file) === owner ? ' ' : '!';
      output += `${mark} ${write.table.padEnd(30)} ${String(owner).padEnd(20)} ${write.kind.padEnd(16)} ${write.file}:${write.line}\n`;
    }
    return { code: 0, output };
  }

  if (owners.size > 0 || listErrors.length === 0) {
    for (const [table, files] of entityFiles) {
      const owner = owners.get(table);
      const features = files.map(featureOf);
      if (!owner) {
        errors.push(
          `${DOC}: table ${table} (entity in ${project}/${files[0]}) has no owner in the list`,
        );
      } else if (!features.includes(owner)) {
        errors.push(
          `${DOC}: table ${table} is listed with owner modules/${owner}, but its entity is ` +
            `declared in ${project}/${files[0]}`,
        );
      }
    }
    for (const table of owners.keys()) {
      if (!entityFiles.has(table)) {
        errors.push(`${DOC}: table ${table} is listed for ${project}, but no entity declares it`);
      }
    }
  }

  for (const write of writes) {
    const owner = owners.get(write.table);
    if (!owner || featureOf(write.file) === owner) continue;
    if (allowed.get(`${project}/${write.file}`)?.has(write.table)) continue;
    errors.push(
      `${project}/${write.file}:${write.line}: ${write.kind} writes ${write.table}, owned by ` +
        `modules/${owner} — call what that module exports (a repository function or an SQL ` +
        `builder that takes the caller's transaction)`,
    );
  }

  if (errors.length > 0) {
    return {
      code: 1,
      output: `${project}: table owners\n${errors.map((e) => `  ${e}\n`).join('')}`,
    };
  }
  return {
    code: 0,
    output: `${project}: every table written only by its owner (${owners.size} tables)\n`,
  };
}

/** What a check that threw prints (on stderr), exit code 2. */
const failure = (error) =>
  `table-owners: ${error instanceof Error ? error.message : String(error)}\n`;

if (process.argv[2] === '--cases') {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const results = JSON.parse(text).map(({ project, baseDir }) => {
    try {
      return check(parseArgs([project, ...(baseDir ? ['--base-dir', baseDir] : [])]));
    } catch (error) {
      return { code: 2, output: failure(error) };
    }
  });
  process.stdout.write(JSON.stringify(results));
} else {
  try {
    const { code, output } = check(parseArgs(process.argv.slice(2)));
    process.stdout.write(output);
    process.exitCode = code;
  } catch (error) {
    process.stderr.write(failure(error));
    process.exitCode = 2;
  }
}
