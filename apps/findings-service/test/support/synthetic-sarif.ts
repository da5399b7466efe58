/** A SARIF log with `count` distinct code results (rules, files, snippets, fingerprints). */
export function syntheticSarif(count: number, tool = 'SynthScanner'): string {
  const rules = Array.from({ length: 50 }, (_, i) => ({
    id: `SYN${String(i).padStart(3, '0')}`,
    shortDescription: { text: `Synthetic rule ${i}` },
    defaultConfiguration: { level: ['error', 'warning', 'note'][i % 3] },
  }));
  const results = Array.from({ length: count }, (_, i) => ({
    ruleId: rules[i % rules.length].id,
    message: { text: `Problem number ${i}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: `src/module${i % 200}/file${i % 37}.c` },
          region: { startLine: i + 1, endLine: i + 2, snippet: { text: `call(${i});` } },
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: `h${i}` },
  }));
  return JSON.stringify({
    version: '2.1.0',
    runs: [{ tool: { driver: { name: tool, rules } }, results }],
  });
}

/** One code result of codeResultsSarif. */
export interface CodeResult {
  rule: string;
  file: string;
  /** Start and end line; the result's position (1-based) when absent. */
  line?: number;
  /** `problem of <rule>` when absent. */
  message?: string;
}

/**
 * A SARIF log of the given code results of one tool (each rule declared once per result, as the
 * small hand-written reports of the e2e tests do): identities follow rule, file and line.
 */
export function codeResultsSarif(
  results: readonly CodeResult[],
  options: { tool?: string; level?: 'error' | 'warning' | 'note' } = {},
): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: options.tool ?? 'CodeScanner',
            rules: results.map((r) => ({ id: r.rule })),
          },
        },
        results: results.map((r, i) => ({
          ruleId: r.rule,
          level: options.level ?? 'warning',
          message: { text: r.message ?? `problem of ${r.rule}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: r.file },
                region: { startLine: r.line ?? i + 1, endLine: r.line ?? i + 1 },
              },
            },
          ],
        })),
      },
    ],
  });
}
