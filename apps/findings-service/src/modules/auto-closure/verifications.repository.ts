import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import type {
  AbsenceResult,
  FindingVerificationEntity,
  VerificationOrigin,
} from './auto-closure.entities';
import { eligibleSql } from './closure.repository';

/** One answer of a scanner, as the callback route verified it. */
export interface ScannerVerdict {
  findingId: string;
  result: AbsenceResult;
  /** The re-verification request it answers; absent: the scanner reports on its own. */
  requestId?: string;
  scanner?: string;
  details?: string;
}

export interface RecordedVerdicts {
  /** Verdicts stored. */
  recorded: number;
  /** Verdicts not stored, with the reason (`unknown_finding`, `unknown_request`). */
  ignored: { finding_id: string; reason: string }[];
  /** Projects whose findings got an `absent` confirmation (closure may follow). */
  confirmedProjects: string[];
}

/** A finding to ask about, with what its scanner needs to find it again. */
export interface VerificationTarget {
  verificationId: string;
  findingId: string;
  projectId: string;
  productId: string;
  scanner: string;
  ruleId: string;
  cve: string | null;
  location: Record<string, unknown>;
}

const TARGET_COLUMNS = `v.id AS verification_id, f.id AS finding_id, f.project_id, f.product_id,
  f.scanner, f.rule_id, f.cve, f.identity_kind, f.file_path, f.start_line, f.end_line, f.host,
  f.ip, f.port, f.protocol, f.url`;

/**
 * Re-verification requests and answers (`finding_verifications`), and the confirmation they
 * give the consecutive-absence counters (`finding_absences`). Only this module writes them.
 */
@Injectable()
export class VerificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores scanner answers set-based: an answer to a request updates it (`answered`), an
   * unrequested one is stored as `scanner`; a finding outside `projectId` (the key's project,
   * when it has one) counts as unknown. The counters take them: `absent` confirms, `present` is
   * a detection (streak 0), `undetermined` blocks until a later `absent`.
   */
  async record(
    verdicts: ScannerVerdict[],
    keyId: string,
    projectId: string | null,
    now: Date,
  ): Promise<RecordedVerdicts> {
    const rows = (await this.dataSource.transaction((manager) =>
      manager.query(
        `WITH input AS (
           SELECT DISTINCT ON (i.finding_id) i.*
             FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[])
                  WITH ORDINALITY AS i(finding_id, result, request_id, scanner, details, n)
            ORDER BY i.finding_id, i.n DESC
         ), known AS (
           SELECT i.*, f.project_id FROM input i JOIN findings f ON f.id = i.finding_id
            WHERE $6::uuid IS NULL OR f.project_id = $6
         ), answered AS (
           UPDATE finding_verifications v SET state = 'answered', result = k.result,
                  answered_at = $7, answered_key_id = $8, scanner = COALESCE(k.scanner, v.scanner),
                  details = k.details
             FROM known k
            WHERE k.request_id IS NOT NULL AND v.id = k.request_id AND v.finding_id = k.finding_id
           RETURNING v.id, v.finding_id, v.project_id, k.result
         ), reported AS (
           INSERT INTO finding_verifications
             (id, finding_id, project_id, origin, state, requested_at, result, answered_at,
              answered_key_id, scanner, details)
           SELECT gen_random_uuid(), k.finding_id, k.project_id, 'scanner', 'answered',
                  $7::timestamptz, k.result, $7::timestamptz, $8::text, k.scanner, k.details
             FROM known k WHERE k.request_id IS NULL
           RETURNING id, finding_id, project_id, result
         ), stored AS (
           SELECT * FROM answered UNION ALL SELECT * FROM reported
         ), counted AS (
           UPDATE finding_absences a SET
             confirmation = s.result, confirmation_at = $7, confirmation_id = s.id,
             streak = CASE WHEN s.result = 'present' THEN 0 ELSE a.streak END,
             streak_started_at = CASE WHEN s.result = 'present' THEN NULL ELSE a.streak_started_at END,
             check_reports = CASE WHEN s.result = 'present' THEN '{}' ELSE a.check_reports END,
             last_result = CASE WHEN s.result = 'present' THEN 'present' ELSE a.last_result END,
             updated_at = $7
             FROM stored s WHERE a.finding_id = s.finding_id
           RETURNING a.project_id, s.result
         )
         SELECT i.finding_id::text,
                CASE WHEN k.finding_id IS NULL THEN 'unknown_finding'
                     WHEN s.id IS NULL THEN 'unknown_request' END AS ignored,
                (SELECT array_agg(DISTINCT project_id::text) FROM counted WHERE result = 'absent')
                  AS confirmed
           FROM input i
           LEFT JOIN known k ON k.finding_id = i.finding_id
           LEFT JOIN stored s ON s.finding_id = i.finding_id`,
        [
          verdicts.map((v) => v.findingId),
          verdicts.map((v) => v.result),
          verdicts.map((v) => v.requestId ?? null),
          verdicts.map((v) => v.scanner ?? null),
          verdicts.map((v) => v.details ?? null),
          projectId,
          now,
          keyId,
        ],
      ),
    )) as { finding_id: string; ignored: string | null; confirmed: string[] | null }[];
    const ignored = rows
      .filter((r) => r.ignored !== null)
      .map((r) => ({ finding_id: r.finding_id, reason: r.ignored as string }));
    return {
      recorded: rows.length - ignored.length,
      ignored,
      confirmedProjects: rows[0]?.confirmed ?? [],
    };
  }

  /** Creates a pending request for each finding (manual or automatic); returns what to send. */
  async createRequests(
    findingIds: string[],
    origin: VerificationOrigin,
    actor: Actor | null,
    now: Date,
  ): Promise<VerificationTarget[]> {
    const rows = (await this.dataSource.query(
      `WITH created AS (
         INSERT INTO finding_verifications
           (id, finding_id, project_id, origin, state, requested_by_type, requested_by_id,
            requested_by_label, requested_at)
         SELECT gen_random_uuid(), f.id, f.project_id, $2::text, 'pending', $3::text, $4::uuid,
                $5::text, $6::timestamptz
           FROM findings f WHERE f.id = ANY($1::uuid[])
         RETURNING id, finding_id
       )
       SELECT ${TARGET_COLUMNS} FROM created v JOIN findings f ON f.id = v.finding_id`,
      [findingIds, origin, actor?.type ?? null, actor?.id ?? null, actor?.label ?? null, now],
    )) as Record<string, unknown>[];
    return rows.map(targetOf);
  }

  /**
   * The automatic path, in one statement: findings of a project whose streak reached
   * `required` checks and that were not yet asked about in this streak are marked asked and get
   * a pending request each (asked once per streak; a failure leaves them unmarked).
   */
  async requestUnrequested(
    projectId: string,
    required: number,
    now: Date,
  ): Promise<VerificationTarget[]> {
    const rows = (await this.dataSource.query(
      `WITH claimed AS (
         UPDATE finding_absences a SET requested_at = $3
           FROM findings f
          WHERE a.project_id = $1 AND f.id = a.finding_id AND a.streak >= $2
            AND a.last_result = 'absent' AND f.last_seen_at = a.basis_seen_at
            AND (a.requested_at IS NULL OR a.requested_at < a.streak_started_at)
            AND NOT COALESCE(a.confirmation = 'absent'
                             AND a.confirmation_at >= a.streak_started_at, false)
         RETURNING a.finding_id, a.project_id
       ), created AS (
         INSERT INTO finding_verifications (id, finding_id, project_id, origin, state, requested_at)
         SELECT gen_random_uuid(), c.finding_id, c.project_id, 'automatic', 'pending', $3
           FROM claimed c
         RETURNING id, finding_id
       )
       SELECT ${TARGET_COLUMNS} FROM created v JOIN findings f ON f.id = v.finding_id`,
      [projectId, required, now],
    )) as Record<string, unknown>[];
    return rows.map(targetOf);
  }

  /** The outgoing request failed: the requests stay visible as `failed` with the reason. */
  async markFailed(verificationIds: string[], reason: string): Promise<void> {
    if (verificationIds.length === 0) return;
    await this.dataSource.query(
      `UPDATE finding_verifications SET state = 'failed', delivery_error = $2
        WHERE id = ANY($1::uuid[]) AND state = 'pending'`,
      [verificationIds, reason.slice(0, 64)],
    );
  }

  async listForFinding(findingId: string, limit: number): Promise<FindingVerificationEntity[]> {
    return (await this.dataSource.query(
      `SELECT id, finding_id AS "findingId", project_id AS "projectId", origin, state,
              requested_by_type AS "requestedByType", requested_by_id AS "requestedById",
              requested_by_label AS "requestedByLabel", requested_at AS "requestedAt",
              delivery_error AS "deliveryError", result, answered_at AS "answeredAt",
              answered_key_id AS "answeredKeyId", scanner, details
         FROM finding_verifications WHERE finding_id = $1
        ORDER BY requested_at DESC, id DESC LIMIT $2`,
      [findingId, limit],
    )) as FindingVerificationEntity[];
  }

  /** Whether any finding of the project is eligible now (used after confirmations). */
  async anyEligible(projectId: string, required: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM finding_absences a JOIN findings f ON f.id = a.finding_id
        WHERE a.project_id = $1 AND ${eligibleSql('$2')} LIMIT 1`,
      [projectId, required],
    )) as unknown[];
    return rows.length > 0;
  }
}

function targetOf(row: Record<string, unknown>): VerificationTarget {
  const kind = row.identity_kind as string;
  const location: Record<string, unknown> =
    kind === 'code'
      ? { kind: 'file', path: row.file_path, start_line: row.start_line, end_line: row.end_line }
      : kind === 'web'
        ? { kind: 'web', url: row.url }
        : { kind: 'network', host: row.host, ip: row.ip, port: row.port, protocol: row.protocol };
  return {
    verificationId: row.verification_id as string,
    findingId: row.finding_id as string,
    projectId: row.project_id as string,
    productId: row.product_id as string,
    scanner: row.scanner as string,
    ruleId: row.rule_id as string,
    cve: (row.cve as string | null) ?? null,
    location,
  };
}
