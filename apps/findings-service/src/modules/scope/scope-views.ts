import { isUUID } from 'class-validator';
import type { Actor } from '../action-log/finding-action';
import type { EntryMode } from './perimeter/perimeter';
import type { EntryKind } from './perimeter/scope-entry-value';
import type { EntryOrigin, ProposalStatus } from './scope.entities';

/** A stored perimeter entry. */
export interface ScopeEntryView {
  id: string;
  projectId: string;
  mode: EntryMode;
  kind: EntryKind;
  value: string;
  comment: string | null;
  origin: EntryOrigin;
  originRef: string | null;
  createdBy: Actor;
  createdAt: Date;
  /** The order of addition (`seq`, text): the keyset cursor. */
  cursorAt: string;
}

export interface ScopeProposalView {
  id: string;
  projectId: string;
  value: string;
  kind: EntryKind;
  status: ProposalStatus;
  comment: string | null;
  proposedBy: Actor;
  timesProposed: number;
  firstProposedAt: Date;
  lastProposedAt: Date;
  decidedAt: Date | null;
  decidedBy: Actor | null;
  decisionComment: string | null;
  entryId: string | null;
  cursorAt: string;
}

export interface ScopeAssetView {
  id: string;
  projectId: string;
  domain: string;
  ip: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  resolving: boolean;
  stoppedResolvingAt: Date | null;
  resumedResolvingAt: Date | null;
  reportedByLabel: string | null;
  cursorAt: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Position after the last row of a page: its timestamp (text) or sequence number, and id. */
export interface KeysetCursor {
  at: string;
  id: string;
}

const SEQUENCE = /^\d{1,18}$/;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2}){0,2}|Z)$/;

/** Opaque keyset cursor: base64url JSON of the last row's timestamp (text), id and list. */
export function encodeCursor(list: string, c: KeysetCursor): string {
  return Buffer.from(JSON.stringify({ l: list, t: c.at, i: c.id }), 'utf8').toString('base64url');
}

/** The cursor, or undefined when malformed or made for another list or filter. */
export function decodeCursor(
  list: string,
  text: string,
  position: 'time' | 'sequence' = 'time',
): KeysetCursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { l, t, i } = parsed as Record<string, unknown>;
  if (l !== list) return undefined;
  if (typeof t !== 'string' || !(position === 'time' ? TIMESTAMP : SEQUENCE).test(t)) {
    return undefined;
  }
  if (typeof i !== 'string' || !isUUID(i, 'loose')) return undefined;
  return { at: t, id: i };
}
