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
