/** A query-language value, quoted when it holds anything but plain characters. */
export function quoteValue(value: string): string {
  if (/^[A-Za-z0-9_./@:-]+$/.test(value) && !value.includes('*')) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The rule text that matches a finding's scanner, rule and file (the one-click rule from a
 * finding page): `scanner:… rule:… file_path:…`, each value quoted as needed.
 */
export function ruleTextFor(finding: {
  scanner: string;
  rule_id: string;
  location: { file_path?: string | null };
}): string {
  const terms = [`scanner:${quoteValue(finding.scanner)}`, `rule:${quoteValue(finding.rule_id)}`];
  const file = finding.location.file_path;
  if (file) terms.push(`file_path:${quoteValue(file)}`);
  return terms.join(' ');
}

/** Where the rules screen opens with a new rule pre-filled. */
export function newRuleHref(projectId: string, name: string, query: string): string {
  const params = new URLSearchParams({ name, query });
  return `/projects/${projectId}/suppression?${params.toString()}`;
}
