import { unstorableTextFields } from '@platform/http';
import { findingIdentity, identityKind } from '@platform/report-parsing';
import type { PolledFinding, PolledNode } from './finding-sources.repository';

const SEVERITIES = new Set(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);
/** A poll may answer at most this many nodes and findings. */
export const MAX_POLL_NODES = 100_000;
export const MAX_POLL_FINDINGS = 1_000_000;

/** `text` cut to `max` UTF-16 units without leaving half of a surrogate pair. */
const cut = (text: string, max: number): string =>
  text.length <= max
    ? text
    : text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max);

const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() !== '' ? cut(v.trim(), max) : null;

/**
 * Whether every string of the answer (keys included, at any depth) passes the text rules of
 * HTTP input that storage needs: no U+0000, no unpaired surrogate (PostgreSQL text cannot hold
 * them; the write failed with SQLSTATE 22021 or stored U+FFFD).
 */
const storable = (value: unknown): boolean => unstorableTextFields(value, 'answer').length === 0;

/**
 * Checks a finding source's `poll-batch` answer and turns it into nodes and findings to write:
 * nodes need a key (≤ 200 characters), findings a node of the batch, a rule and a severity of
 * the five; the product is the node's (else the finding's node's, else `defaultProduct`); a
 * finding's location is its node's host (hostname, else IP) with its port and protocol, so its
 * identity is the network identity of a report finding (product + CVE + host/port/protocol).
 * Findings of one identity in one product are merged (first wins). Texts are cut at their caps
 * without splitting a character. Undefined: malformed, or a text that cannot be stored
 * (U+0000, an unpaired surrogate: the HTTP input rules).
 */
export function readPollBatch(
  value: unknown,
  defaultProduct: string,
): { nodes: PolledNode[]; findings: PolledFinding[] } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { nodes, findings } = value as { nodes?: unknown; findings?: unknown };
  if (!Array.isArray(nodes) || !Array.isArray(findings)) return undefined;
  if (nodes.length > MAX_POLL_NODES || findings.length > MAX_POLL_FINDINGS) return undefined;
  if (!storable(value)) return undefined;
  const byKey = new Map<string, PolledNode>();
  for (const raw of nodes) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const n = raw as Record<string, unknown>;
    const key = text(n['key'], 200);
    if (!key) return undefined;
    const attributes: Record<string, string> = {};
    for (const a of Array.isArray(n['attributes']) ? n['attributes'] : []) {
      const { key: k, value: v } = (a ?? {}) as { key?: unknown; value?: unknown };
      if (typeof k === 'string' && typeof v === 'string') attributes[cut(k, 64)] = cut(v, 256);
    }
    byKey.set(key, {
      key,
      hostname: text(n['hostname'], 255),
      ip: text(n['ip'], 64),
      os: text(n['os'], 255),
      product: text(n['product'], 200) ?? defaultProduct,
      attributes,
    });
  }
  const out = new Map<string, PolledFinding>();
  for (const raw of findings) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const f = raw as Record<string, unknown>;
    const node = byKey.get(String(f['nodeKey'] ?? ''));
    const rule = text(f['rule'], 500);
    const severity = typeof f['severity'] === 'string' ? f['severity'].toUpperCase() : '';
    if (!node || !rule || !SEVERITIES.has(severity)) return undefined;
    const host = node.hostname ?? node.ip ?? node.key;
    const port =
      typeof f['port'] === 'number' &&
      Number.isInteger(f['port']) &&
      f['port'] > 0 &&
      f['port'] < 65536
        ? f['port']
        : null;
    const protocol = text(f['protocol'], 16)?.toLowerCase() ?? null;
    const cve = text(f['cve'], 64)?.toUpperCase() ?? null;
    const location = {
      kind: 'network' as const,
      host,
      ...(port !== null ? { port } : {}),
      ...(protocol !== null ? { protocol } : {}),
    };
    const identityInput = { rule_id: rule, location, ...(cve ? { cve } : {}) };
    const finding: PolledFinding = {
      nodeKey: node.key,
      product: node.product,
      identityHash: findingIdentity(identityInput),
      identityKind: identityKind(identityInput),
      rule,
      severity,
      title: (text(f['description'], 200) ?? rule).split('\n')[0] ?? rule,
      description: text(f['description'], 10_000) ?? rule,
      host,
      ip: node.ip,
      port,
      protocol,
      cve,
      component: text(f['component'], 500),
      componentVersion: text(f['componentVersion'], 200),
    };
    const key = `${finding.product}\0${finding.identityHash}`;
    if (!out.has(key)) out.set(key, finding);
  }
  return { nodes: [...byKey.values()], findings: [...out.values()] };
}
