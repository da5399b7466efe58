import { Injectable } from '@nestjs/common';
import type { EgressOutcome, EgressRefusalReason } from '@platform/egress';
import { OutboundHttpClient } from '../../outbound-http/outbound-http.client';
import { ScopeError } from '../scope.errors';

/**
 * A NetBox REST API client for the perimeter import (docs/findings-service/scope.md#netbox):
 * `GET {base}/api/ipam/prefixes/` and `/api/ipam/ip-addresses/` with
 * `Authorization: Token <token>`, pages of `{count, next, previous, results}` followed through
 * `next` (which must stay on the base URL's origin). Every call goes through the service's
 * request-forgery guard (`OutboundHttpClient`). The token only ever travels in that header:
 * it is not logged, stored or put into an error.
 */
export const NETBOX_OBJECTS = ['prefixes', 'ip-addresses'] as const;
export type NetboxObjects = (typeof NETBOX_OBJECTS)[number];

export interface NetboxQuery {
  baseUrl: string;
  token: string;
  objects: readonly NetboxObjects[];
  /** Tag slugs: NetBox returns objects carrying every one of them. */
  tags: readonly string[];
  /** Status values (`active`, `reserved`, ...): any of them. */
  statuses: readonly string[];
  /** A VRF id, or `null` for the global table. */
  vrfId?: string;
  /** More objects than this (by NetBox's `count` or as read) refuse the import. */
  maxObjects: number;
}

export interface IpamRecord {
  objects: NetboxObjects;
  /** NetBox's id of the object. */
  id: string;
  /** The prefix (`10.0.0.0/24`) or the address without its mask (`10.0.0.1`). */
  value: string;
}

/** NetBox's largest page by default (MAX_PAGE_SIZE); a smaller server setting is followed. */
const PAGE_SIZE = 1000;
const MAX_PAGES = 1000;

/** Refusals of the guard that mean "this address may not be called". */
const ADDRESS_REFUSALS: ReadonlySet<EgressRefusalReason> = new Set([
  'invalid_url',
  'scheme_not_allowed',
  'host_not_permitted',
  'host_forbidden',
  'address_not_allowed',
  'address_not_allowlisted',
  'redirect_refused',
]);

function refusal(outcome: Exclude<EgressOutcome, { ok: true }>): ScopeError {
  if (ADDRESS_REFUSALS.has(outcome.reason)) {
    return new ScopeError('scope_ipam_url_refused', {
      reason: `${outcome.reason}${outcome.cause ? ` (${outcome.cause})` : ''}: ${outcome.message}`,
    });
  }
  if (outcome.reason === 'body_too_large') {
    return new ScopeError('scope_ipam_answer_invalid', {
      reason: 'a page is larger than the outgoing answer limit',
    });
  }
  return new ScopeError('scope_ipam_unavailable', {
    reason: `${outcome.reason}: ${outcome.message}`,
  });
}

const invalid = (reason: string): ScopeError =>
  new ScopeError('scope_ipam_answer_invalid', { reason });

/** The base URL without a trailing `/` or `/api`. */
export function netboxBase(text: string): string {
  let base = text.trim();
  while (base.endsWith('/')) base = base.slice(0, -1);
  if (base.toLowerCase().endsWith('/api')) base = base.slice(0, -4);
  return base;
}

function firstPage(base: string, objects: NetboxObjects, query: NetboxQuery): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), brief: 'true' });
  for (const tag of query.tags) params.append('tag', tag);
  for (const status of query.statuses) params.append('status', status);
  if (query.vrfId !== undefined) params.append('vrf_id', query.vrfId);
  return `${base}/api/ipam/${objects}/?${params.toString()}`;
}

interface NetboxPage {
  count: number | undefined;
  next: string | null;
  results: unknown[];
}

function pageOf(body: Uint8Array): NetboxPage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw invalid('the answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('the answer is not a NetBox list (an object with results)');
  }
  const { count, next, results } = parsed as Record<string, unknown>;
  if (!Array.isArray(results)) throw invalid('the answer has no results list');
  if (next !== null && next !== undefined && typeof next !== 'string') {
    throw invalid('next is neither a URL nor null');
  }
  return {
    count: typeof count === 'number' && Number.isSafeInteger(count) ? count : undefined,
    next: typeof next === 'string' && next !== '' ? next : null,
    results,
  };
}

function recordOf(objects: NetboxObjects, item: unknown): IpamRecord {
  const field = objects === 'prefixes' ? 'prefix' : 'address';
  if (typeof item !== 'object' || item === null) throw invalid(`a ${objects} result is no object`);
  const { id, [field]: raw } = item as Record<string, unknown>;
  if (typeof raw !== 'string' || (typeof id !== 'number' && typeof id !== 'string')) {
    throw invalid(`a ${objects} result lacks id or ${field}`);
  }
  const value = objects === 'prefixes' ? raw : raw.split('/')[0];
  return { objects, id: String(id).slice(0, 40), value: value.slice(0, 400) };
}

@Injectable()
export class NetboxClient {
  constructor(private readonly http: OutboundHttpClient) {}

  /** Every prefix and/or address the query selects, in NetBox's order. */
  async fetch(query: NetboxQuery): Promise<IpamRecord[]> {
    const base = netboxBase(query.baseUrl);
    const checked = this.http.check(`${base}/api/`);
    if (!checked.ok) throw refusal(checked);
    const origin = checked.url.origin;
    const records: IpamRecord[] = [];
    for (const objects of query.objects) {
      const seen = new Set<string>();
      let url: string | null = firstPage(base, objects, query);
      for (let pages = 0; url !== null; pages += 1) {
        if (pages >= MAX_PAGES || seen.has(url)) throw invalid('the pages do not end');
        seen.add(url);
        const page = await this.page(url, query.token);
        if (page.count !== undefined && records.length + page.count > query.maxObjects) {
          throw new ScopeError('scope_ipam_too_large', { max: query.maxObjects });
        }
        for (const item of page.results) records.push(recordOf(objects, item));
        if (records.length > query.maxObjects) {
          throw new ScopeError('scope_ipam_too_large', { max: query.maxObjects });
        }
        url = page.next;
        if (url !== null && !sameOrigin(url, origin)) {
          throw invalid('the next page is on another address than the one entered');
        }
      }
    }
    return records;

    function sameOrigin(next: string, expected: string): boolean {
      try {
        return new URL(next).origin === expected;
      } catch {
        return false;
      }
    }
  }

  private async page(url: string, token: string): Promise<NetboxPage> {
    const outcome = await this.http.request(url, {
      method: 'GET',
      headers: [
        ['authorization', `Token ${token}`],
        ['accept', 'application/json'],
      ],
      caller: 'netbox-import',
    });
    if (!outcome.ok) throw refusal(outcome);
    if (outcome.status === 401 || outcome.status === 403) {
      throw new ScopeError('scope_ipam_token_refused', { status: outcome.status });
    }
    if (outcome.status >= 500) {
      throw new ScopeError('scope_ipam_unavailable', { reason: `HTTP ${outcome.status}` });
    }
    if (outcome.status !== 200) {
      throw invalid(`HTTP ${outcome.status}: is this the address of NetBox?`);
    }
    return pageOf(outcome.body);
  }
}
