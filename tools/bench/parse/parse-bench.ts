/**
 * Report parsing benchmark (not part of `npm test`).
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/parse/parse-bench.ts
 *
 * Generates realistic SARIF files (rules with help texts, many files, snippets, context
 * regions, fingerprints, properties): ~60 MB / 100 000 results with `tool` first, and ~100 MB
 * with `results` before `tool` (sorted-key serializers). Each file is parsed in a fresh child
 * process through `readSarif` (two passes over the file); the child prints results/s and its
 * peak RSS. A whole-file `JSON.parse` child gives the reference figure.
 * Env: BENCH_DIR (default: OS temp dir), BENCH_KEEP=1 keeps the generated files.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileReportSource, readSarif } from '@platform/report-parsing';

interface Variant {
  name: string;
  results: number;
  resultsFirst: boolean;
  contextLines: number;
}

const VARIANTS: Variant[] = [
  { name: 'sarif-100k-60mb', results: 100_000, resultsFirst: false, contextLines: 0 },
  { name: 'sarif-100mb-results-first', results: 120_000, resultsFirst: true, contextLines: 3 },
];
const RULES = 400;
const FILES = 5_000;
const LEVELS = ['error', 'warning', 'note', 'none'];
const WORDS =
  'input user buffer query request token session value path handler config parser'.split(' ');

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  return out.join(' ');
}

function rule(index: number, random: () => number): object {
  return {
    id: `BENCH${String(index).padStart(4, '0')}`,
    name: `bench/${sentence(random, 2).replace(' ', '-')}`,
    shortDescription: { text: `Possible ${sentence(random, 4)} issue` },
    fullDescription: { text: `The ${sentence(random, 18)}.` },
    help: { text: sentence(random, 60), markdown: `# Help\n\n${sentence(random, 60)}` },
    defaultConfiguration: { level: LEVELS[index % LEVELS.length] },
    properties: {
      tags: ['security', `external/cwe/cwe-${20 + (index % 600)}`],
      precision: 'high',
      ...(index % 3 === 0 ? { 'security-severity': String((index % 100) / 10) } : {}),
    },
  };
}

function result(index: number, random: () => number, contextLines: number): object {
  const file = Math.floor(random() * FILES);
  const line = 1 + Math.floor(random() * 2000);
  const code = `  const ${sentence(random, 1)} = ${sentence(random, 1)}(${sentence(random, 3).replace(/ /g, ', ')});`;
  const context = Array.from({ length: contextLines }, () => `    ${sentence(random, 6)};`).join(
    '\n',
  );
  const ruleIndex = Math.floor(random() * RULES);
  return {
    ruleId: `BENCH${String(ruleIndex).padStart(4, '0')}`,
    ruleIndex,
    ...(index % 4 === 0 ? {} : { level: LEVELS[index % LEVELS.length] }),
    message: { text: `Value from ${sentence(random, 8)} reaches a sink "${sentence(random, 2)}".` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: {
            uri: `src/module${file % 97}/sub${file % 13}/file${file}.ts`,
            uriBaseId: '%SRCROOT%',
          },
          region: {
            startLine: line,
            startColumn: 3,
            endLine: line,
            endColumn: 40,
            snippet: { text: code },
          },
          ...(contextLines === 0
            ? {}
            : {
                contextRegion: {
                  startLine: line - 2,
                  endLine: line + 2,
                  snippet: { text: `${context}\n${code}` },
                },
              }),
        },
      },
    ],
    partialFingerprints: {
      primaryLocationLineHash: `${(index * 2654435761) >>> 0}:1`,
      primaryLocationStartColumnFingerprint: '2',
    },
    fingerprints: {
      'matchHash/v1': `${index.toString(16).padStart(8, '0')}${Math.floor(random() * 1e9).toString(16)}`,
    },
    ...(index % 10 === 0
      ? { baselineState: 'new', suppressions: [{ kind: 'inSource', status: 'accepted' }] }
      : {}),
    properties: { 'bench-index': index },
  };
}

function generate(path: string, variant: Variant): number {
  const random = rng(42);
  const fd = openSync(path, 'w');
  const tool = JSON.stringify({
    driver: {
      name: 'BenchScanner',
      version: '1.2.3',
      rules: Array.from({ length: RULES }, (_, i) => rule(i, random)),
    },
  });
  const meta = `"tool":${tool},"originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///builds/bench/"}},"versionControlProvenance":[{"repositoryUri":"https://example.test/bench.git","revisionId":"0123456789abcdef"}]`;
  writeSync(
    fd,
    '{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{',
  );
  if (!variant.resultsFirst) writeSync(fd, `${meta},`);
  writeSync(fd, '"results":[\n');
  let batch: string[] = [];
  for (let i = 0; i < variant.results; i += 1) {
    batch.push(JSON.stringify(result(i, random, variant.contextLines)));
    if (batch.length === 2000 || i === variant.results - 1) {
      writeSync(fd, `${i < 2000 ? '' : ',\n'}${batch.join(',\n')}`);
      batch = [];
    }
  }
  writeSync(fd, '\n]');
  if (variant.resultsFirst) writeSync(fd, `,${meta}`);
  writeSync(fd, '}]}\n');
  closeSync(fd);
  return statSync(path).size;
}

interface ChildFigures {
  results: number;
  seconds: number;
  maxRssMb: number;
  startRssMb: number;
}

async function childStream(path: string): Promise<ChildFigures> {
  const startRssMb = process.memoryUsage().rss / 2 ** 20;
  const started = process.hrtime.bigint();
  let results = 0;
  for await (const batch of readSarif(fileReportSource(path), {}, { batchSize: 1000 })) {
    results += batch.findings.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { results, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, startRssMb };
}

function childWhole(path: string): ChildFigures {
  const startRssMb = process.memoryUsage().rss / 2 ** 20;
  const started = process.hrtime.bigint();
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { runs: { results: unknown[] }[] };
  const results = doc.runs.reduce((n, run) => n + run.results.length, 0);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { results, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, startRssMb };
}

function runChild(mode: string, path: string): ChildFigures {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, mode, path], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildFigures;
}

function fmt(figures: ChildFigures): string {
  const rate = Math.round(figures.results / figures.seconds);
  return `${figures.results} results in ${figures.seconds.toFixed(2)} s = ${rate} results/s, peak RSS ${Math.round(figures.maxRssMb)} MB (start ${Math.round(figures.startRssMb)} MB)`;
}

async function main(): Promise<void> {
  const [mode, path] = process.argv.slice(2);
  if (mode === '--child-stream') {
    console.log(JSON.stringify(await childStream(path)));
    return;
  }
  if (mode === '--child-whole') {
    console.log(JSON.stringify(childWhole(path)));
    return;
  }
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'parse-bench-'));
  try {
    for (const variant of VARIANTS) {
      const file = join(dir, `${variant.name}.sarif`);
      const size = generate(file, variant);
      console.log(
        `${variant.name}: ${(size / 1e6).toFixed(1)} MB, ${variant.results} results, results ${variant.resultsFirst ? 'before' : 'after'} tool`,
      );
      const runs = [
        runChild('--child-stream', file),
        runChild('--child-stream', file),
        runChild('--child-stream', file),
      ];
      runs.sort((a, b) => a.seconds - b.seconds);
      console.log(`  readSarif (median of 3): ${fmt(runs[1])}`);
      console.log(
        `  reference JSON.parse whole file (no normalization): ${fmt(runChild('--child-whole', file))}`,
      );
    }
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    else console.log(`files kept in ${dir}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
