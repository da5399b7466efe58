import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { Clock } from '../../../app/clock';
import { actorOf } from '../../action-log/finding-action';
import type { EntryMode } from '../perimeter/perimeter';
import { parseEntryValue } from '../perimeter/scope-entry-value';
import { ScopeAccess } from '../scope-access';
import { MAX_PROJECT_ENTRIES, ScopeEntryWriter, type ParsedCandidate } from '../scope-entry-writer';
import { ScopeError } from '../scope.errors';
import { NetboxClient, type NetboxObjects } from './netbox-client';

/** IP address management systems the import speaks. */
export const IPAM_SYSTEMS = ['netbox'] as const;

export interface IpamImportRequest {
  baseUrl: string;
  token: string;
  objects: readonly NetboxObjects[];
  tags: readonly string[];
  statuses: readonly string[];
  vrfId?: string;
  mode: EntryMode;
}

export interface IpamImportResult {
  system: string;
  prefixesRead: number;
  addressesRead: number;
  added: number;
  alreadyPresent: number;
  skippedOverlap: number;
  skippedInvalid: number;
  /** The first 100 objects left out, with why. */
  skipped: { value: string; reason: string }[];
}

const MAX_REPORTED_SKIPS = 100;

/**
 * The import of a perimeter from an IP address management system (NetBox): its prefixes and
 * addresses become entries of one mode (origin `netbox`). Idempotent: what is already an
 * entry, or meets one (the overlap rule), is skipped and counted, never an error; an object
 * the perimeter refuses (too wide, ...) is skipped as invalid. Nothing is written when the
 * system cannot be read completely. `manage_scope` only.
 */
@Injectable()
export class ScopeImportService {
  constructor(
    private readonly access: ScopeAccess,
    private readonly netbox: NetboxClient,
    private readonly writer: ScopeEntryWriter,
    private readonly clock: Clock,
  ) {}

  async import(
    access: AccessContext,
    projectId: string,
    system: string,
    request: IpamImportRequest,
  ): Promise<IpamImportResult> {
    await this.access.require(access, projectId, 'manage_scope');
    if (!(IPAM_SYSTEMS as readonly string[]).includes(system)) {
      throw new ScopeError('scope_ipam_unsupported', {
        system: system.slice(0, 60),
        supported: IPAM_SYSTEMS.join(', '),
      });
    }
    const records = await this.netbox.fetch({ ...request, maxObjects: MAX_PROJECT_ENTRIES });
    const skipped: { value: string; reason: string }[] = [];
    const skip = (value: string, reason: string) => {
      if (skipped.length < MAX_REPORTED_SKIPS) skipped.push({ value, reason });
    };
    const candidates: ParsedCandidate[] = [];
    const values = new Set<string>();
    let skippedInvalid = 0;
    let alreadyPresent = 0;
    for (const record of records) {
      const parsed = parseEntryValue(record.value);
      if (!parsed.ok) {
        skippedInvalid += 1;
        skip(record.value, parsed.error.problem);
        continue;
      }
      // The same address under two prefixes' masks (ip-addresses) is one entry.
      if (values.has(parsed.entry.value)) {
        alreadyPresent += 1;
        continue;
      }
      values.add(parsed.entry.value);
      const ref = `netbox ${record.objects === 'prefixes' ? 'prefix' : 'ip-address'} ${record.id}`;
      candidates.push({
        mode: request.mode,
        value: record.value,
        comment: null,
        originRef: ref,
        field: ref,
        entry: parsed.entry,
      });
    }
    const result = await this.writer.add(projectId, candidates, {
      origin: 'netbox',
      by: actorOf(access),
      at: this.clock.now(),
      onConflict: 'skip',
    });
    let skippedOverlap = 0;
    for (const s of result.skipped) {
      if (s.conflict === 'duplicate') {
        alreadyPresent += 1;
      } else {
        skippedOverlap += 1;
        skip(s.value, `overlaps the entry ${s.other}`);
      }
    }
    return {
      system,
      prefixesRead: records.filter((r) => r.objects === 'prefixes').length,
      addressesRead: records.filter((r) => r.objects === 'ip-addresses').length,
      added: result.added.length,
      alreadyPresent,
      skippedOverlap,
      skippedInvalid,
      skipped,
    };
  }
}
