import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { actorOf } from '../action-log/finding-action';
import { Perimeter, type EntryMode, type FilterResult } from './perimeter/perimeter';
import { parseEntryValue, type EntryKind } from './perimeter/scope-entry-value';
import { ScopeAccess } from './scope-access';
import { parseCandidates, ScopeEntryWriter } from './scope-entry-writer';
import { ScopeError } from './scope.errors';
import { ScopeRepository } from './scope.repository';
import { decodeCursor, encodeCursor, type Page, type ScopeEntryView } from './scope-views';

/** Most entries one POST adds. */
export const MAX_ENTRIES_PER_REQUEST = 1_000;
/** Most targets one filter request checks (a text/plain list; JSON arrays stop at 10 000). */
export const MAX_FILTER_TARGETS = 100_000;

export interface NewEntryInput {
  value: string;
  mode: EntryMode;
  comment: string | null;
}

export interface PerimeterExport {
  generatedAt: Date;
  targets: string[];
  excludes: string[];
  entries: ScopeEntryView[];
}

function perimeterOf(rows: { mode: EntryMode; value: string }[]): Perimeter {
  const entries = [];
  for (const row of rows) {
    const parsed = parseEntryValue(row.value);
    if (parsed.ok) entries.push({ mode: row.mode, entry: parsed.entry });
  }
  return new Perimeter(entries);
}

/**
 * A project's perimeter entries (docs/findings-service/scope.md): listed, exported and used
 * as a filter by anyone holding a permission on the project; added and deleted with
 * `manage_scope`.
 */
@Injectable()
export class ScopeEntriesService {
  constructor(
    private readonly repository: ScopeRepository,
    private readonly access: ScopeAccess,
    private readonly writer: ScopeEntryWriter,
    private readonly clock: Clock,
  ) {}

  async list(
    access: AccessContext,
    projectId: string,
    filters: { mode?: EntryMode; kind?: EntryKind },
    page: { cursor?: string; limit: number },
  ): Promise<Page<ScopeEntryView>> {
    await this.access.member(access, projectId);
    const list = `entries:${filters.mode ?? ''}:${filters.kind ?? ''}`;
    const cursor =
      page.cursor === undefined ? undefined : decodeCursor(list, page.cursor, 'sequence');
    if (page.cursor !== undefined && !cursor) throw new ScopeError('scope_cursor_invalid');
    const rows = await this.repository.listEntries(projectId, filters, cursor, page.limit + 1);
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor:
        rows.length > page.limit && last
          ? encodeCursor(list, { at: last.cursorAt, id: last.id })
          : null,
    };
  }

  async add(
    access: AccessContext,
    projectId: string,
    inputs: NewEntryInput[],
  ): Promise<ScopeEntryView[]> {
    await this.access.require(access, projectId, 'manage_scope');
    if (inputs.length > MAX_ENTRIES_PER_REQUEST) {
      throw new ScopeError('scope_batch_too_large', { max: MAX_ENTRIES_PER_REQUEST });
    }
    const candidates = parseCandidates(
      inputs.map((input, i) => ({
        mode: input.mode,
        value: input.value,
        comment: input.comment,
        originRef: null,
        field: `entries.${i}.value`,
      })),
    );
    const { added } = await this.writer.add(projectId, candidates, {
      origin: 'manual',
      by: actorOf(access),
      at: this.clock.now(),
      onConflict: 'refuse',
    });
    return added;
  }

  async delete(access: AccessContext, projectId: string, entryId: string): Promise<void> {
    await this.access.require(access, projectId, 'manage_scope');
    const deleted = await this.repository.deleteEntry(projectId, entryId);
    if (!deleted) throw new ScopeError('scope_entry_not_found');
  }

  /** The stored entries as a membership test. */
  async perimeter(projectId: string): Promise<Perimeter> {
    return perimeterOf(await this.repository.entryValues(projectId));
  }

  async export(access: AccessContext, projectId: string): Promise<PerimeterExport> {
    await this.access.member(access, projectId);
    const generatedAt = this.clock.now();
    const entries = await this.repository.allEntries(projectId);
    return { generatedAt, ...perimeterOf(entries).exportTargets(), entries };
  }

  async filter(access: AccessContext, projectId: string, targets: string[]): Promise<FilterResult> {
    await this.access.member(access, projectId);
    if (targets.length > MAX_FILTER_TARGETS) {
      throw new ScopeError('scope_filter_too_many', { max: MAX_FILTER_TARGETS });
    }
    return (await this.perimeter(projectId)).filter(targets);
  }
}
