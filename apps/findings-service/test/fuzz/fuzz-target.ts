import {
  jsonErrorEnvelope,
  type FuzzCase,
  type FuzzOperation,
  type FuzzRequest,
  type FuzzResponse,
  type ValidRequest,
} from '@platform/testing';
import { createHmac } from 'node:crypto';
import { syntheticSarif } from '../support/synthetic-sarif';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app';
import type { FindingsFuzzSeed } from './fuzz-seed';

/** Path parameter values of seeded objects, by route prefix and parameter name. */
function pathValues(op: FuzzOperation, seed: FindingsFuzzSeed): Record<string, string> {
  const p = op.path;
  if (p.startsWith('/api/v1/admin/service-accounts/')) {
    return { id: seed.targetAccountId, permission_id: seed.permissionId };
  }
  if (p.startsWith('/api/v1/admin/users/')) return { id: seed.targetUserId };
  if (p.startsWith('/api/v1/admin/plugin-marketplaces/')) return { id: seed.pluginSourceId };
  if (p.startsWith('/api/v1/admin/installed-plugins/')) return { id: seed.enricherId };
  if (p.startsWith('/api/v1/admin/scanner-callback-keys/')) return { id: seed.callbackKeyId };
  if (p.startsWith('/api/v1/projects/{id}/plugin-settings/')) {
    return { id: seed.projectId, plugin_id: seed.enricherId };
  }
  if (p.startsWith('/api/v1/projects/')) {
    return {
      id: seed.projectId,
      user_id: seed.memberId,
      plugin_id: seed.channelId,
      entry_id: seed.scopeEntryId,
      proposal_id: seed.scopeProposalId,
      delivery_id: seed.deliveryId,
      rule_id: seed.suppressionRuleId,
      ipam_system: 'netbox',
    };
  }
  if (p.startsWith('/api/v1/products/')) return { id: seed.productId, product_id: seed.productId };
  if (p.startsWith('/api/v1/reports/')) return { report_id: seed.reportId };
  if (p === '/api/v1/findings/{id}/unmerge') return { id: seed.mergedMemberId };
  if (p.startsWith('/api/v1/findings/')) {
    return { id: seed.findingId, plugin_id: seed.enricherId, comment_id: seed.commentId };
  }
  if (p.startsWith('/api/v1/jobs/')) return { id: seed.reportId };
  if (p.startsWith('/api/v1/sla/violations/')) return { id: seed.violationId };
  return {};
}

let entryCounter = 0;
/** A fresh name for each valid entry request (entries of one mode may not overlap). */
const randomValue = (): string => `v${(entryCounter += 1)}-${Date.now().toString(36)}`;

function bodies(seed: FindingsFuzzSeed): Record<string, unknown> {
  return {
    'POST /api/v1/auth/local/login': { login: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    'POST /api/v1/admin/scanner-callback-keys': {
      name: 'fuzz-created',
      project_id: seed.projectId,
    },
    'POST /api/v1/admin/scanner-callback-keys/{id}/rotate': { window_hours: 2 },
    'PUT /api/v1/projects/{id}/verification-endpoint': {
      url: 'https://scanner.fuzz.example/verify',
      rotate_secret: false,
    },
    'POST /api/v1/scanner-callbacks/verify-finding': {
      scanner: 'fuzz-scanner',
      results: [{ finding_id: seed.findingId, result: 'undetermined', details: 'fuzz' }],
    },
    'POST /api/v1/admin/users': {
      email: 'fuzz-created@example.test',
      password: 'fuzz-password-0123',
      is_admin: false,
    },
    'PUT /api/v1/admin/users/{id}/enabled': { enabled: false },
    'PUT /api/v1/projects/{id}/plugin-channels/{plugin_id}/config': {
      settings: { enabled: true, min_severity: 'HIGH', chat_id: '-100', access_token: 'fuzz' },
    },
    'POST /api/v1/admin/service-accounts': { name: 'fuzz-created' },
    'POST /api/v1/admin/service-accounts/{id}/permissions': {
      permission: 'read_findings',
      level: 'project',
      project_id: seed.projectId,
    },
    'POST /api/v1/projects': { name: 'fuzz-created', description: 'fuzz' },
    'PUT /api/v1/projects/{id}/settings': {
      remediation_days: { CRITICAL: 5 },
      auto_verify_fixes: false,
    },
    'PUT /api/v1/projects/{id}/members/{user_id}': { role: 'analyst' },
    'POST /api/v1/projects/{id}/suppression-rules': {
      name: 'fuzz created',
      query: 'scanner:fuzz file_path:vendor/*',
    },
    'POST /api/v1/projects/{id}/suppression-rules/preview': { query: 'severity:info tags:fuzz' },
    'PUT /api/v1/projects/{id}/suppression-rules/{rule_id}': { query: 'rule:fuzz-changed' },
    'POST /api/v1/projects/{id}/products': { name: 'fuzz-created', scan_enabled: false },
    'PUT /api/v1/products/{id}': { name: seed.productName, scan_enabled: true },
    'PUT /api/v1/projects/{id}/ticket-provider/config': {
      plugin_id: seed.ticketProviderId,
      settings: { project_key: 'SEC', api_token: 'fuzz-token' },
      tracker_closed_action: 'mark_fixed',
    },
    'POST /api/v1/findings/ticket-url': { finding_ids: [seed.findingId] },
    'POST /api/v1/projects/{id}/tickets/backfill': { mode: 'create', min_severity: 'HIGH' },
    'POST /api/v1/findings/ticket/bulk': { finding_ids: [seed.findingId], title: 'fuzz' },
    'POST /api/v1/findings/inventory-rollup/bulk-status': {
      axis: 'package',
      key: 'fuzz-pkg',
      filters: { project_id: seed.projectId },
      action: 'wont_fix',
      justification: 'fuzz',
    },
    'POST /api/v1/products/{id}/findings': {
      title: 'fuzz manual',
      severity: 'LOW',
      host: 'fuzz.example.test',
    },
    'POST /api/v1/findings/bulk-tags': { finding_ids: [seed.findingId], add: ['fuzz'] },
    'POST /api/v1/findings/{id}/tags': { tags: ['fuzz'] },
    'DELETE /api/v1/findings/{id}/tags': { tags: ['fuzz'] },
    'PATCH /api/v1/findings/{id}': { status: 'confirmed', comment: 'fuzz' },
    'POST /api/v1/findings/{id}/comments': { body: 'fuzz comment' },
    'PATCH /api/v1/findings/{id}/comments/{comment_id}': { body: 'fuzz edit' },
    'POST /api/v1/projects/{id}/members': { email: seed.memberEmail, role: 'analyst' },
    'POST /api/v1/findings/bulk-status': { finding_ids: [seed.findingId], status: 'confirmed' },
    'POST /api/v1/findings/merge': {
      survivor_id: seed.mergeSurvivorId,
      finding_ids: [seed.mergeMemberId],
    },
    'POST /api/v1/sla/violations/{id}/resolve': { comment: 'fuzz' },
    'POST /api/v1/admin/plugin-marketplaces': {
      name: 'fuzz-created',
      catalog_url: 'https://catalog.fuzz.example/catalog.json',
    },
    'PUT /api/v1/admin/plugin-marketplaces/{id}': { name: 'fuzz-source', is_active: true },
    'POST /api/v1/admin/installed-plugins': {
      source_type: 'marketplace',
      marketplace_id: seed.pluginSourceId,
      catalog_plugin_id: 'fuzz-enricher',
    },
    'PUT /api/v1/admin/installed-plugins/{id}': { settings: {} },
    'POST /api/v1/admin/installed-plugins/{id}/update': {},
    'POST /api/v1/projects/{id}/scope/entries': {
      entries: [
        { value: `${randomValue()}.fuzz.example`, mode: 'include', comment: 'fuzz' },
        { value: '198.18.0.0/24', mode: 'exclude' },
      ],
    },
    'POST /api/v1/projects/{id}/scope/filter': {
      targets: ['198.18.0.1', 'a.fuzz.example', 'https://xn--e1afmkfd.xn--p1ai/', '::1'],
    },
    'POST /api/v1/projects/{id}/scope/proposals': { value: '*.new.fuzz.example', comment: 'seen' },
    'POST /api/v1/projects/{id}/scope/proposals/{proposal_id}/confirm': { comment: 'fuzz' },
    'POST /api/v1/projects/{id}/scope/proposals/{proposal_id}/reject': { comment: 'fuzz' },
    'POST /api/v1/projects/{id}/scope/assets': {
      assets: [{ domain: 'www.fuzz.example', ip: '198.18.0.7', seen_at: '2026-01-01T00:00:00Z' }],
    },
    'POST /api/v1/projects/{id}/scope/resolution-report': {
      domains: [{ domain: 'www.fuzz.example', resolving: false }],
    },
    // The guard refuses the loopback address at once (no development setting): no network.
    'POST /api/v1/projects/{id}/scope/import/{ipam_system}': {
      base_url: 'https://127.0.0.1:9',
      token: 'fuzz-token',
      objects: ['prefixes'],
      tag: ['fuzz'],
      status: ['active'],
      vrf_id: 'null',
    },
  };
}

function queries(seed: FindingsFuzzSeed): Record<string, Record<string, string>> {
  return {
    'GET /api/v1/products/lookup': { repository_url: seed.repositoryUrl },
    'GET /api/v1/findings': { project_id: seed.projectId, limit: '5' },
    'GET /api/v1/findings/{id}/actions': { limit: '5' },
    'GET /api/v1/findings/count': { project_id: seed.projectId },
    'GET /api/v1/findings/groups': { by: 'rule', project_id: seed.projectId, limit: '5' },
    'GET /api/v1/findings/{id}/group-axes/members': { axis: 'package', limit: '5' },
    'GET /api/v1/findings/inventory-rollup': { axis: 'package', project_id: seed.projectId },
    'GET /api/v1/findings/inventory-rollup/members': {
      axis: 'host',
      key: 'fuzz.example',
      limit: '5',
    },
    'GET /api/v1/findings/export.csv': { project_id: seed.projectId },
    'POST /api/v1/findings/export-links': { project_id: seed.projectId },
    'GET /api/v1/findings/{id}/comments': { limit: '5' },
    'GET /api/v1/users/search': { project_id: seed.projectId, q: 'example' },
    'GET /api/v1/sla/violations': { project_id: seed.projectId, limit: '5' },
    'GET /api/v1/jobs': { limit: '5' },
    'GET /api/v1/projects/{id}/scope': { mode: 'include', limit: '5' },
    'GET /api/v1/projects/{id}/scope/export': { format: 'text' },
    'GET /api/v1/projects/{id}/scope/proposals': { status: 'all', limit: '5' },
    'GET /api/v1/projects/{id}/scope/assets': { limit: '5' },
  };
}

/** The valid request of each operation, with the ids of the seeded objects. */
export function validFindingsRequest(op: FuzzOperation, seed: FindingsFuzzSeed): ValidRequest {
  const valid: ValidRequest = {
    path: pathValues(op, seed),
    query: queries(seed)[op.key],
    body: bodies(seed)[op.key],
  };
  if (op.key === 'POST /api/v1/auth/token/refresh') valid.headers = { cookie: seed.refreshCookie };
  if (op.key === CALLBACK_ROUTE) {
    valid.headers = {
      'x-scanner-key-id': seed.callbackKey.key_id,
      'x-scanner-timestamp': 'now',
      'x-scanner-signature': SIGN_HERE,
    };
  }
  if (op.key === 'POST /api/v1/products/{product_id}/reports') {
    valid.multipart = [
      {
        name: 'file',
        filename: 'fuzz.sarif',
        contentType: 'application/json',
        data: syntheticSarif(1),
      },
      { name: 'engine', data: 'fuzz-engine' },
      { name: 'verify_fixes', data: 'false' },
    ];
  }
  return valid;
}

function setCookieValue(response: FuzzResponse): string | undefined {
  const lines = response.headers['set-cookie'] ?? [];
  return lines.find((c) => c.startsWith('findsvc_refresh='))?.split(';')[0];
}

/** Replaces what a successful request consumed, so later cases still reach deep code. */
export async function replaceConsumed(
  seed: FindingsFuzzSeed,
  fuzzCase: FuzzCase,
  response: FuzzResponse,
): Promise<void> {
  switch (fuzzCase.operation.key) {
    case 'POST /api/v1/auth/token/refresh':
      seed.refreshCookie = setCookieValue(response) ?? seed.refreshCookie;
      return;
    case 'POST /api/v1/auth/logout':
      await seed.reloginIfSignedOut();
      return;
    case 'DELETE /api/v1/admin/users/{id}':
      await seed.newTargetUser();
      return;
    case 'DELETE /api/v1/admin/service-accounts/{id}':
      await seed.newTargetAccount();
      return;
    case 'DELETE /api/v1/admin/service-accounts/{id}/permissions/{permission_id}':
      await seed.newPermission();
      return;
    case 'DELETE /api/v1/projects/{id}/members/{user_id}':
      await seed.addMember();
      return;
    case 'DELETE /api/v1/products/{id}':
      await seed.newProduct();
      return;
    case 'DELETE /api/v1/admin/installed-plugins/{id}':
      await seed.newEnricher();
      return;
    case 'DELETE /api/v1/admin/plugin-marketplaces/{id}':
      await seed.newPluginSource();
      return;
    case 'DELETE /api/v1/findings/{id}':
      await seed.newFinding();
      return;
    case 'POST /api/v1/findings/merge':
      await seed.newMergeCandidates();
      return;
    case 'POST /api/v1/findings/{id}/unmerge':
      await seed.newMergedPair();
      return;
    case 'DELETE /api/v1/findings/{id}/comments/{comment_id}':
      await seed.newComment();
      return;
    case 'POST /api/v1/jobs/{id}/cancel':
      await seed.newReport();
      return;
    case 'POST /api/v1/sla/violations/{id}/resolve':
      await seed.newViolation();
      return;
    case 'DELETE /api/v1/admin/scanner-callback-keys/{id}':
    case 'POST /api/v1/admin/scanner-callback-keys/{id}/rotate':
      await seed.newCallbackKey();
      return;
    case 'DELETE /api/v1/projects/{id}/scope/entries/{entry_id}':
      await seed.newScopeEntry();
      return;
    case 'DELETE /api/v1/projects/{id}/suppression-rules/{rule_id}':
      await seed.newSuppressionRule();
      return;
    case 'POST /api/v1/projects/{id}/notification-deliveries/{delivery_id}/retry':
      await seed.newDelivery();
      return;
    case 'POST /api/v1/projects/{id}/scope/proposals/{proposal_id}/confirm':
    case 'POST /api/v1/projects/{id}/scope/proposals/{proposal_id}/reject':
      await seed.newScopeProposal();
      return;
    default:
      return;
  }
}

const CALLBACK_ROUTE = 'POST /api/v1/scanner-callbacks/verify-finding';
/** The placeholder the valid callback request carries where its signature goes. */
const SIGN_HERE = 'v1=sign-here';

/**
 * Signs callback requests over the bytes actually sent (the timestamp of now), so hostile
 * bodies get past the signature to validation and storage. A variant that replaced a
 * signature header keeps its value (and is refused by the signature check, as it should be).
 */
export function signCallbacks(
  seed: FindingsFuzzSeed,
  fuzzCase: FuzzCase,
  request: FuzzRequest,
): void {
  if (fuzzCase.operation.key !== CALLBACK_ROUTE) return;
  const headers = request.headers;
  const name = (wanted: string) => Object.keys(headers).find((h) => h.toLowerCase() === wanted);
  const signature = name('x-scanner-signature');
  const timestamp = name('x-scanner-timestamp');
  if (!signature || headers[signature] !== SIGN_HERE) return;
  const seconds = Math.floor(Date.now() / 1000);
  if (timestamp && headers[timestamp] === 'now') headers[timestamp] = String(seconds);
  const stamped = timestamp ? Number(headers[timestamp]) : seconds;
  headers[signature] = `v1=${createHmac('sha256', seed.callbackKey.secret)
    .update(`${stamped}.`)
    .update(request.body ?? Buffer.alloc(0))
    .digest('hex')}`;
}

/** Findings errors are `{error: <localized>, code: <machine code>, ...}`. */
export const findingsEnvelopeProblem = jsonErrorEnvelope(['error', 'code']);
