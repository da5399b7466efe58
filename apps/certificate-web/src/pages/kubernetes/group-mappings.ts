import type { Schemas } from '../../api/client';

/** A cluster's group mapping: who (any caller, a role, an alias's members, one person) gets a group. */
export type GroupMapping = Schemas['K8sGroupMappingDto'];

const SOURCES: GroupMapping['source'][] = ['any', 'role', 'alias', 'user'];

/** One mapping a line: `any = group`, or `<role|alias|user>:<value> = group`. */
export function formatMappings(groups: GroupMapping[]): string {
  return groups
    .map((g) => `${g.source === 'any' ? 'any' : `${g.source}:${g.value}`} = ${g.group}`)
    .join('\n');
}

/** The mappings of `formatMappings`' text, or the first line that is not one. */
export function parseMappings(text: string): GroupMapping[] | { badLine: string } {
  const out: GroupMapping[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^([a-z]+)(?::(\S+))?\s*=\s*(\S+)$/.exec(line);
    const source = m?.[1] as GroupMapping['source'] | undefined;
    if (!m || !source || !SOURCES.includes(source) || (source === 'any') !== !m[2]) {
      return { badLine: line };
    }
    out.push({ source, value: m[2] ?? '', group: m[3] ?? '' });
  }
  return out;
}
