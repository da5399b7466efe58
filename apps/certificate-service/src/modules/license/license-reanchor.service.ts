import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { LicenseLedgerService } from './license-ledger.service';
import { LicenseRepository } from './license.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

export interface ReanchorResult {
  activeCount: number;
  recount: number;
  devicesWithCertificates: number;
  checkpointCount: number;
  placeholders: number;
  previousTamperReason: string | null;
}

/** Re-anchoring the usage ledger after `tamper` (`POST /license/reanchor`). */
@Injectable()
export class LicenseReanchorService {
  private readonly logger = new Logger('LicenseReanchor');
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly ledger: LicenseLedgerService,
    private readonly audit: AuditService,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * `POST /license/reanchor`: slots = surviving ledger identities ∪ devices with issued
   * non-revoked certificates, topped up with placeholders to max(recount, devices, last
   * verified checkpoint); a new anchor checkpoint; `tamper` cleared.
   */
  async reanchor(actor: Actor): Promise<ReanchorResult> {
    const result = await this.licenses.transaction(async (tx) => {
      const state = await tx.state();
      const at = new Date();
      const recount = await tx.recountedIdentities();
      const live = await tx.identitiesWithLiveCertificates();
      const confirmed = state
        ? (await tx.recentCheckpoints(1000)).find((cp) =>
            this.ledger.checkpointVerifies(cp, state.instancePublicKey),
          )
        : undefined;
      const checkpointCount = confirmed?.slotCount ?? 0;
      const slots = new Map<string, string | null>(recount.map((k) => [k, null]));
      for (const d of live) slots.set(d.identityKey, d.deviceId);
      const count = Math.max(recount.length, live.length, checkpointCount, slots.size);
      const head = await tx.head();
      const placeholders = count - slots.size;
      for (let i = 1; i <= placeholders; i += 1) slots.set(`ph:${head.seq}-${i}`, null);
      await tx.replaceSlots(
        [...slots].map(([identityKey, deviceId]) => ({ identityKey, deviceId })),
        head.seq,
        at,
      );
      await tx.raiseHighWater();
      await this.ledger.checkpoint(tx, at, true);
      await tx.clearTamper();
      await this.outbox.enqueue(tx.em, [
        {
          type: 'license.reanchored',
          data: { active_count: count, placeholders, at: at.toISOString() },
        },
      ]);
      return {
        activeCount: count,
        recount: recount.length,
        devicesWithCertificates: live.length,
        checkpointCount,
        placeholders,
        previousTamperReason: state?.tamperReason ?? null,
      };
    });
    this.logger.warn(
      {
        active_count: result.activeCount,
        recount: result.recount,
        devices_with_certificates: result.devicesWithCertificates,
        checkpoint_count: result.checkpointCount,
        placeholders: result.placeholders,
        previous_tamper_reason: result.previousTamperReason,
      },
      'license ledger re-anchored',
    );
    await this.audit.record({
      action: 'license.reanchor',
      actor,
      details: {
        active_count: result.activeCount,
        recount: result.recount,
        devices_with_certificates: result.devicesWithCertificates,
        checkpoint_count: result.checkpointCount,
        placeholders: result.placeholders,
      },
    });
    return result;
  }
}
