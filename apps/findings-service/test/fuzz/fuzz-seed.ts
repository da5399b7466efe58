import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createCallbackKey } from '../support/auto-closure';
import { DataSource } from 'typeorm';
import { createProduct, createProject, bearer, addMember } from '../support/catalog';
import { seedFindings } from '../support/findings-seed';
import {
  freshServiceAccount,
  freshUser,
  grant,
  login,
  loginAdmin,
  type Login,
} from '../support/sessions';
import { syntheticSarif } from '../support/synthetic-sarif';
import type { TestApp } from '../support/test-app';

/** Real objects the fuzz requests address, replaced when a request consumes one. */
export class FindingsFuzzSeed {
  admin!: Login;
  /** A second session of the member user whose refresh cookie the refresh route rotates. */
  refreshCookie = '';
  serviceAccountKey = '';
  projectId = '';
  memberId = '';
  memberEmail = '';
  memberPassword = '';
  productId = '';
  productName = '';
  repositoryUrl = '';
  findingId = '';
  /** A comment of the administrator on findingId (editing and deleting need its author). */
  commentId = '';
  reportId = '';
  targetAccountId = '';
  /** A user the disable/enable and delete routes act on (the member stays untouched). */
  targetUserId = '';
  permissionId = '';
  /** An open deadline violation of the seeded finding (the resolve route consumes it). */
  violationId = '';
  /**
   * An installed enricher, disabled: the fuzz has no plugin runner, so manual enrichment
   * reaches the enricher check (404 enricher_not_found) rather than the runner (503).
   */
  enricherId = '';
  /** An enabled native channel (`maxru-channel`: the backfill's target) the channel routes address. */
  channelId = '';
  /**
   * A plugin catalog source whose URL the catalog fetch refuses at once (loopback, without the
   * development setting): catalog, install and update routes reach their checks, no network.
   */
  pluginSourceId = '';
  /** A perimeter entry of the project (the delete route consumes it). */
  scopeEntryId = '';
  /** A pending scope proposal of the project (confirm and reject consume it). */
  scopeProposalId = '';
  /** A scanner callback key: rotate and delete consume it; the callback route signs with `callbackKey`. */
  callbackKeyId = '';
  callbackKey = { key_id: '', secret: '' };
  /** An installed ticketing provider (never loaded: the fuzz has no runner) the ticket routes name. */
  ticketProviderId = '';
  /** A failed notification delivery of the project to channelId (the retry route consumes it). */
  deliveryId = '';
  /**
   * Findings of their own for merge and unmerge, never findingId, so that no other route meets a
   * merged finding: a pair to merge (the merge route consumes it) and a member already merged
   * (the unmerge route consumes it).
   */
  mergeSurvivorId = '';
  mergeMemberId = '';
  mergedMemberId = '';
  /** A suppression rule of the project (the delete route consumes it). */
  suppressionRuleId = '';

  constructor(private readonly t: TestApp) {}

  async seed(): Promise<void> {
    this.admin = await loginAdmin(this.t);
    const project = await createProject(this.t, bearer(this.admin), `fuzz-${randomUUID()}`);
    this.projectId = project.id;
    const member = await freshUser(this.t, this.admin);
    this.memberId = member.id;
    this.memberEmail = member.email;
    this.memberPassword = member.password;
    await this.addMember();
    this.refreshCookie = (await login(this.t, member.email, member.password)).cookie;
    this.serviceAccountKey = await this.keyWithEveryPermission();
    await this.newTargetAccount();
    await this.newTargetUser();
    await this.newProduct();
    await this.newEnricher();
    await this.newPluginSource();
    await this.newChannel();
    await this.newScopeEntry();
    await this.newScopeProposal();
    await this.newCallbackKey();
    await this.newTicketProvider();
    await this.newDelivery();
    await this.newSuppressionRule();
    this.callbackKey = await createCallbackKey(this.t, this.admin, { name: 'fuzz-signing' });
  }

  async newTicketProvider(): Promise<void> {
    const manifest = Buffer.from(
      JSON.stringify({
        id: 'fuzz-tracker',
        version: '1.0.0',
        capabilities: ['ticketing_provider'],
        runtime: 'wasm',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: ['tracker.fuzz.example'],
        settings: [
          { name: 'project_key', type: 'string', per_project: true },
          { name: 'api_token', type: 'string', secret: true, per_project: true },
        ],
        artifact_sha256: '2'.repeat(64),
      }),
    );
    const [row] = (await this.t.app.get(DataSource).query(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities)
       VALUES ('sideload', 'fuzz-tracker', 'wasm', true, '1.0.0', $1, $2, '{ticketing_provider}')
       RETURNING id`,
      ['2'.repeat(64), manifest],
    )) as { id: string }[];
    this.ticketProviderId = row.id;
  }

  async newDelivery(): Promise<void> {
    const db = this.t.app.get(DataSource);
    const notificationId = randomUUID();
    this.deliveryId = randomUUID();
    await db.query(
      `INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
              opened_at, last_added_at, sealed_at)
       VALUES ($1, $2, 'new_findings', 'sealed', '{"HIGH": 1}', '[]', 1, now(), now(), now())`,
      [notificationId, this.projectId],
    );
    await db.query(
      `INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
              idempotency_key, threshold, state, attempts, next_attempt_at, last_error_code,
              last_error_message, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, '{"min_severity":"INFO"}', 'failed', 1, now(), 'rejected',
               'fuzz', now(), now())`,
      [
        this.deliveryId,
        notificationId,
        this.projectId,
        this.channelId,
        `ntf:${notificationId}:${this.channelId}`,
      ],
    );
  }

  async newCallbackKey(): Promise<void> {
    this.callbackKeyId = (await createCallbackKey(this.t, this.admin, { name: 'fuzz' })).id;
  }

  async newScopeEntry(): Promise<void> {
    const res = await request(this.t.url)
      .post(`/api/v1/projects/${this.projectId}/scope/entries`)
      .set('Authorization', `Bearer ${this.admin.token}`)
      .send({ entries: [{ value: `e-${randomUUID()}.fuzz.example` }] })
      .expect(201);
    this.scopeEntryId = (res.body as { data: { id: string }[] }).data[0].id;
  }

  async newSuppressionRule(): Promise<void> {
    const res = await request(this.t.url)
      .post(`/api/v1/projects/${this.projectId}/suppression-rules`)
      .set('Authorization', `Bearer ${this.admin.token}`)
      .send({ name: 'fuzz rule', query: `rule:fuzz-${randomUUID()}` })
      .expect(201);
    this.suppressionRuleId = (res.body as { data: { id: string } }).data.id;
  }

  async newScopeProposal(): Promise<void> {
    const res = await request(this.t.url)
      .post(`/api/v1/projects/${this.projectId}/scope/proposals`)
      .set('Authorization', `Bearer ${this.admin.token}`)
      .send({ value: `p-${randomUUID()}.fuzz.example`, comment: 'fuzz' })
      .expect(201);
    this.scopeProposalId = (res.body as { data: { id: string } }).data.id;
  }

  async newPluginSource(): Promise<void> {
    const [row] = (await this.t.app.get(DataSource).query(
      `INSERT INTO plugin_sources (name, catalog_url, public_key)
       VALUES ('fuzz-source', 'https://127.0.0.1:9/catalog.json', NULL) RETURNING id`,
    )) as { id: string }[];
    this.pluginSourceId = row.id;
  }

  async newEnricher(): Promise<void> {
    const manifest = Buffer.from(
      JSON.stringify({
        id: 'fuzz-enricher',
        version: '1.0.0',
        capabilities: ['finding_enricher'],
        runtime: 'wasm',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [],
        artifact_sha256: '0'.repeat(64),
      }),
    );
    const [row] = (await this.t.app.get(DataSource).query(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities)
       VALUES ('sideload', 'fuzz-enricher', 'wasm', false, '1.0.0', $1, $2, '{finding_enricher}')
       RETURNING id`,
      ['0'.repeat(64), manifest],
    )) as { id: string }[];
    this.enricherId = row.id;
  }

  async newChannel(): Promise<void> {
    const manifest = Buffer.from(
      JSON.stringify({
        id: 'maxru-channel',
        version: '1.0.0',
        capabilities: ['notification_channel'],
        runtime: 'native',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [
          { name: 'chat_id', type: 'string', per_project: true },
          { name: 'access_token', type: 'string', secret: true, per_project: true },
        ],
        artifact_sha256: '1'.repeat(64),
      }),
    );
    const [row] = (await this.t.app.get(DataSource).query(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities)
       VALUES ('sideload', 'maxru-channel', 'native', true, '1.0.0', $1, $2, '{notification_channel}')
       RETURNING id`,
      ['1'.repeat(64), manifest],
    )) as { id: string }[];
    this.channelId = row.id;
  }

  async addMember(): Promise<void> {
    await addMember(this.t, bearer(this.admin), this.projectId, this.memberId, 'analyst');
  }

  /** Logout revokes refresh tokens; signs the admin in again if it also ended the access. */
  async reloginIfSignedOut(): Promise<void> {
    const me = await request(this.t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${this.admin.token}`);
    if (me.status === 401) this.admin = await loginAdmin(this.t);
  }

  /** A product (with a repository URL), one finding in it and one pending report. */
  async newProduct(): Promise<void> {
    this.repositoryUrl = `https://git.example.test/fuzz/${randomUUID()}.git`;
    const product = await createProduct(this.t, bearer(this.admin), this.projectId, {
      repository_url: this.repositoryUrl,
    });
    this.productId = product.id;
    this.productName = product.name;
    await this.newFinding();
    await this.newMergeCandidates();
    await this.newMergedPair();
    await this.newReport();
  }

  async newMergeCandidates(): Promise<void> {
    const product = { id: this.productId, project_id: this.projectId, name: this.productName };
    [this.mergeSurvivorId, this.mergeMemberId] = await seedFindings(this.t, product, [
      { title: 'fuzz merge survivor', rule_id: 'fuzz-merge-a' },
      { title: 'fuzz merge member', rule_id: 'fuzz-merge-b' },
    ]);
  }

  async newMergedPair(): Promise<void> {
    const product = { id: this.productId, project_id: this.projectId, name: this.productName };
    const [survivor, member] = await seedFindings(this.t, product, [
      { title: 'fuzz merged survivor', rule_id: 'fuzz-merged-a' },
      { title: 'fuzz merged member', rule_id: 'fuzz-merged-b' },
    ]);
    await request(this.t.url)
      .post('/api/v1/findings/merge')
      .set('Authorization', `Bearer ${this.admin.token}`)
      .send({ survivor_id: survivor, finding_ids: [member] })
      .expect(200);
    this.mergedMemberId = member ?? '';
  }

  async newFinding(): Promise<void> {
    const product = { id: this.productId, project_id: this.projectId, name: this.productName };
    // A neighbour on every group axis (package, host, CVE, rule): the group and roll-up
    // routes answer with real rows.
    const axes = {
      component: 'fuzz-pkg',
      host: 'fuzz.example',
      cve: 'CVE-2024-0001',
      rule_id: 'fuzz-rule',
    };
    [this.findingId] = await seedFindings(this.t, product, [
      { title: 'fuzz target', ...axes },
      { title: 'fuzz neighbour', ...axes },
    ]);
    await this.newViolation();
    await this.newComment();
  }

  async newComment(): Promise<void> {
    const res = await request(this.t.url)
      .post(`/api/v1/findings/${this.findingId}/comments`)
      .set('Authorization', `Bearer ${this.admin.token}`)
      .send({ body: 'fuzz seed' })
      .expect(201);
    this.commentId = (res.body as { data: { id: string } }).data.id;
  }

  async newViolation(): Promise<void> {
    const [row] = (await this.t.app.get(DataSource).query(
      `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at,
         opened_at)
       SELECT id, project_id, product_id, severity, 'breached', now(), now() FROM findings
        WHERE id = $1 RETURNING id`,
      [this.findingId],
    )) as { id: string }[];
    this.violationId = row.id;
  }

  async newReport(): Promise<void> {
    const res = await request(this.t.url)
      .post(`/api/v1/products/${this.productId}/reports`)
      .set('Authorization', `Bearer ${this.admin.token}`)
      .attach('file', Buffer.from(syntheticSarif(2)), 'seed.sarif')
      .expect(202);
    this.reportId = (res.body as { data: { report_id: string } }).data.report_id;
  }

  /** The service account the admin routes address (not the one the fuzz role signs in with). */
  async newTargetAccount(): Promise<void> {
    this.targetAccountId = (await freshServiceAccount(this.t, this.admin)).id;
    await this.newPermission();
  }

  async newTargetUser(): Promise<void> {
    this.targetUserId = (await freshUser(this.t, this.admin)).id;
  }

  async newPermission(): Promise<void> {
    const res = await grant(this.t, this.admin, this.targetAccountId, {
      permission: 'read_findings',
      level: 'project',
      project_id: this.projectId,
    }).expect(201);
    this.permissionId = (res.body as { data: { id: string } }).data.id;
  }

  private async keyWithEveryPermission(): Promise<string> {
    const sa = await freshServiceAccount(this.t, this.admin);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const grants = [
      ...[
        'upload_report',
        'read_findings',
        'list_products',
        'create_project',
        'create_product',
        'update_product',
        'delete_product',
        'read_metrics',
      ].map((permission) => ({ permission, level: 'global' })),
      { permission: 'write_findings', level: 'global', expires_at: expires },
      { permission: 'read_reports', level: 'project', project_id: this.projectId },
      { permission: 'manage_scope', level: 'project', project_id: this.projectId },
    ];
    for (const body of grants) await grant(this.t, this.admin, sa.id, body).expect(201);
    return sa.key;
  }
}
