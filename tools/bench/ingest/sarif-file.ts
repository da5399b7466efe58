import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const LEVELS = ['error', 'warning', 'note', 'none'];
const WORDS =
  'input user buffer query request token session value path handler config parser stream'.split(
    ' ',
  );

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}

function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/**
 * Writes a realistic SARIF 2.1.0 log with `results` distinct results: 400 rules with help texts
 * and CWE tags, 5 000 files, regions with snippets and context, fingerprints and
 * partialFingerprints, properties. `contextLines` inflates the file (2 → ~60 MB per 100k).
 */
export async function writeSarif(
  path: string,
  results: number,
  options: {
    contextLines?: number;
    seed?: number;
    /**
     * A package on every result, a host and a CVE on 60 % (result properties). A host and CVE
     * make the identity (host, CVE, port): each such result has its own CVE, so every result
     * stays one finding.
     */
    axisValues?: boolean;
  } = {},
): Promise<void> {
  const random = rng(options.seed ?? 42);
  const context = options.contextLines ?? 2;
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const rules = Array.from({ length: 400 }, (_, i) => ({
    id: `BENCH${String(i).padStart(4, '0')}`,
    name: `bench/${words(random, 2).replace(' ', '-')}`,
    shortDescription: { text: `Possible ${words(random, 4)} issue` },
    fullDescription: { text: `The ${words(random, 18)}.` },
    help: { text: words(random, 60) },
    defaultConfiguration: { level: LEVELS[i % LEVELS.length] },
    properties: {
      tags: ['security', `external/cwe/cwe-${20 + (i % 600)}`],
      ...(i % 3 === 0 ? { 'security-severity': String((i % 100) / 10) } : {}),
    },
  }));
  await write(
    `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"BenchScanner","version":"1.2.3","rules":${JSON.stringify(rules)}}},"versionControlProvenance":[{"repositoryUri":"https://example.com/bench.git","revisionId":"0123456789abcdef"}],"results":[`,
  );
  for (let i = 0; i < results; i += 1) {
    const file = `src/pkg${i % 50}/module${i % 5_000}.c`;
    const line = 1 + Math.floor(i / 5_000) * 3;
    const snippet = `${words(random, 6)}(${i});`;
    const result = {
      ruleId: rules[i % rules.length].id,
      ruleIndex: i % rules.length,
      message: { text: `Finding ${i}: ${words(random, 10)}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: file, uriBaseId: 'SRCROOT' },
            region: { startLine: line, endLine: line + 1, snippet: { text: snippet } },
            contextRegion: {
              startLine: Math.max(1, line - context),
              endLine: line + context,
              snippet: {
                text: Array.from({ length: context * 2 + 1 }, () => words(random, 8)).join('\n'),
              },
            },
          },
        },
      ],
      fingerprints: { 'bench/v1': `${i.toString(16).padStart(16, '0')}` },
      partialFingerprints: { primaryLocationLineHash: `${(i * 2654435761) >>> 0}:1` },
      properties: {
        confidence: random() > 0.5 ? 'high' : 'medium',
        ...(options.axisValues
          ? {
              component: `pkg-${(i * 7919) % 3000}`,
              ...(i % 5 < 3
                ? { host: `app-${i % 190}.example.com`, cve: `CVE-2024-${100000 + i}` }
                : {}),
            }
          : {}),
      },
    };
    await write((i === 0 ? '' : ',') + JSON.stringify(result));
  }
  await write(']}]}');
  out.end();
  await once(out, 'finish');
}
