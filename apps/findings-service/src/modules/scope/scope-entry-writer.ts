import { Injectable } from '@nestjs/common';
import type { Actor } from '../action-log/finding-action';
import { EntryOverlaps, type Conflict, type IndexedEntry } from './perimeter/entry-overlaps';
import type { EntryMode } from './perimeter/perimeter';
import {
  parseEntryValue,
  type EntryProblem,
  type ParsedEntry,
} from './perimeter/scope-entry-value';
import type { EntryOrigin } from './scope.entities';
import { ScopeError, type ScopeErrorCode } from './scope.errors';
import { PerimeterTx, ScopeRepository, type StoredEntryValue } from './scope.repository';
import type { ScopeEntryView } from './scope-views';

/** Most entries one project's perimeter holds. */
export const MAX_PROJECT_ENTRIES = 50_000;

const PROBLEM_CODES: Record<EntryProblem['code'], ScopeErrorCode> = {
  invalid: 'scope_entry_invalid',
  too_wide: 'scope_entry_too_wide',
  host_bits: 'scope_entry_host_bits',
  name_too_long: 'scope_entry_name_too_long',
  punycode_invalid: 'scope_entry_punycode_invalid',
  wildcard_invalid: 'scope_entry_wildcard_invalid',
};

/** The text of a value inside a message: at most 100 characters. */
export function quoted(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 100 ? `${trimmed.slice(0, 100)}…` : trimmed;
}

export interface EntryCandidate {
  mode: EntryMode;
  value: string;
  comment: string | null;
  originRef: string | null;
  /** Where the value came from in the request (`entries.3.value`, `value`). */
  field: string;
}

export interface ParsedCandidate extends EntryCandidate {
  entry: ParsedEntry;
}

export interface SkippedCandidate {
  value: string;
  conflict: 'duplicate' | 'overlap';
  /** The entry it meets. */
  other: string;
}

/** Parses every candidate; the first problem is thrown with all of them in `fields`. */
export function parseCandidates(candidates: EntryCandidate[]): ParsedCandidate[] {
  const parsed: ParsedCandidate[] = [];
  const problems: { candidate: EntryCandidate; error: EntryProblem }[] = [];
  for (const candidate of candidates) {
    const result = parseEntryValue(candidate.value);
    if (result.ok) parsed.push({ ...candidate, entry: result.entry });
    else problems.push({ candidate, error: result.error });
  }
  const first = problems[0];
  if (first) {
    throw new ScopeError(PROBLEM_CODES[first.error.code], {
      entry: quoted(first.candidate.value),
      problem: first.error.problem,
      ...(first.error.code === 'host_bits' ? { network: first.error.network } : {}),
      fields: problems.slice(0, 100).map((p) => ({
        field: p.candidate.field,
        problems: [p.error.problem],
      })),
    });
  }
  return parsed;
}

function stored(rows: StoredEntryValue[]): IndexedEntry[] {
  const out: IndexedEntry[] = [];
  for (const row of rows) {
    const parsed = parseEntryValue(row.value);
    if (parsed.ok) out.push({ ref: row.id, mode: row.mode, entry: parsed.entry });
  }
  return out;
}

function conflictError(candidate: ParsedCandidate, conflict: Conflict): ScopeError {
  const other = conflict.other;
  const message =
    conflict.kind === 'duplicate'
      ? `already an entry (${other.mode}, ${other.ref})`
      : `overlaps the ${other.mode} entry ${other.entry.value} (${other.ref})`;
  return new ScopeError(
    conflict.kind === 'duplicate' ? 'scope_entry_duplicate' : 'scope_entry_overlaps',
    {
      entry: candidate.entry.value,
      existing: other.entry.value,
      existing_id: other.ref,
      existing_mode: other.mode,
      problem: message,
      fields: [{ field: candidate.field, problems: [message] }],
    },
  );
}

/**
 * Adds entries to a perimeter under its lock: each candidate is checked against the stored
 * entries and the candidates before it (the overlap rule). `refuse`: the first conflict
 * refuses the whole batch (409 naming the other entry); `skip`: conflicting candidates are
 * left out and reported (the IPAM import). Then the perimeter may not pass
 * MAX_PROJECT_ENTRIES (422).
 */
@Injectable()
export class ScopeEntryWriter {
  constructor(private readonly repository: ScopeRepository) {}

  add(
    projectId: string,
    candidates: ParsedCandidate[],
    options: { origin: EntryOrigin; by: Actor; at: Date; onConflict: 'refuse' | 'skip' },
  ): Promise<{ added: ScopeEntryView[]; skipped: SkippedCandidate[] }> {
    return this.repository.withPerimeter(projectId, (tx) => this.addIn(tx, candidates, options));
  }

  /** The same inside a perimeter transaction the caller holds (confirming a proposal). */
  async addIn(
    tx: PerimeterTx,
    candidates: ParsedCandidate[],
    options: { origin: EntryOrigin; by: Actor; at: Date; onConflict: 'refuse' | 'skip' },
  ): Promise<{ added: ScopeEntryView[]; skipped: SkippedCandidate[] }> {
    const existing = await tx.entryValues();
    const overlaps = new EntryOverlaps(stored(existing));
    const accepted: ParsedCandidate[] = [];
    const skipped: SkippedCandidate[] = [];
    for (const candidate of candidates) {
      const conflict = overlaps.conflict(candidate);
      if (conflict) {
        if (options.onConflict === 'refuse') throw conflictError(candidate, conflict);
        skipped.push({
          value: candidate.entry.value,
          conflict: conflict.kind,
          other: conflict.other.entry.value,
        });
        continue;
      }
      overlaps.add({ ref: candidate.field, mode: candidate.mode, entry: candidate.entry });
      accepted.push(candidate);
    }
    if (existing.length + accepted.length > MAX_PROJECT_ENTRIES) {
      throw new ScopeError('scope_entries_limit', { max: MAX_PROJECT_ENTRIES });
    }
    const added = await tx.insertEntries(
      accepted.map((c) => ({
        mode: c.mode,
        kind: c.entry.kind,
        value: c.entry.value,
        comment: c.comment,
        originRef: c.originRef,
      })),
      options.origin,
      options.by,
      options.at,
    );
    return { added, skipped };
  }
}
