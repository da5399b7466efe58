// The 50 rules of the suppression ingestion bench (ingest-rules-bench.ts, ingest-rules-profile.ts).

/**
 * 50 rules: 5 that match (~10 % of the report: pkg45-49), 45 that are checked and miss.
 * BENCH_RULES=matching: only the 5.
 */
export function benchRules(): string[] {
  const out: string[] = [];
  for (let i = 45; i < 50; i++) out.push(`file_path:src/pkg${i}/*`);
  if (process.env['BENCH_RULES'] === 'matching') return out;
  for (let i = 0; i < 10; i++)
    out.push(`rule:NOPE${String(i).padStart(4, '0')} scanner:BenchScanner`);
  for (let i = 0; i < 10; i++) out.push(`scanner:other-${i}|third-${i} severity:low|info`);
  for (let i = 0; i < 10; i++) out.push(`cwe:${900 + i} -file_path:src/pkg1/*`);
  for (let i = 0; i < 10; i++) out.push(`file_path:*vendor*/lib${i}/*.c OR tags:thirdparty-${i}`);
  for (let i = 0; i < 5; i++) out.push(`host:*.internal${i}.example component:libfoo${i}`);
  return out;
}
