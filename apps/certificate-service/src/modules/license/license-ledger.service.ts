import { Injectable, Logger } from '@nestjs/common';
import { verify } from 'node:crypto';
import { DeploymentInstanceKeyService } from './deployment-instance-key.service';
import { ed25519PublicKey } from './license-file';
import type { LicenseCheckpointEntity } from './license-checkpoint.entity';
import {
  checkpointMessage,
  type CheckpointFacts,
  firstBrokenLink,
  LEDGER_GENESIS_HASH,
  ledgerDigest,
} from './license-ledger';
import { LicenseRepository, type LicenseTx } from './license.repository';
import type { LicenseStateEntity } from './license-state.entity';

/**
 * The tamper-evident usage ledger: checkpoints signed by the deployment instance key, the
 * integrity check (at start and before each counted issuance) and the `tamper` state it sets.
 */
@Injectable()
export class LicenseLedgerService {
  private readonly logger = new Logger('LicenseLedger');
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly instanceKey: DeploymentInstanceKeyService,
  ) {}

  /**
   * Checks the usage ledger: signatures of the latest checkpoint and of the latest anchor,
   * the hash chain from the anchor (or the genesis), no rows missing after or added beyond the
   * latest checkpoint, and the slots in use equal to its signed count. The reason, or undefined.
   */
  async integrityProblem(
    tx: LicenseTx,
    state: LicenseStateEntity | null,
  ): Promise<string | undefined> {
    if (!state) return undefined;
    const { latest, anchor } = await tx.checkpoints();
    for (const cp of [anchor, latest]) {
      if (cp && !this.checkpointVerifies(cp, state.instancePublicKey)) {
        return `checkpoint ${cp.id} does not verify with the deployment instance key`;
      }
    }
    const start = anchor
      ? { seq: BigInt(anchor.seq), hash: anchor.hash }
      : { seq: 0n, hash: LEDGER_GENESIS_HASH };
    const all = await tx.entriesAfter(0n);
    if (anchor && ledgerDigest(all.filter((e) => e.seq <= start.seq)) !== anchor.prefixDigest) {
      return `ledger rows up to ${start.seq} changed since the re-anchoring (checkpoint ${anchor.id})`;
    }
    const entries = all.filter((e) => e.seq > start.seq);
    const broken = firstBrokenLink(entries, start);
    if (broken !== undefined) return `ledger row ${broken} breaks the hash chain`;
    if (!latest) return undefined;
    const headSeq = entries.at(-1)?.seq ?? start.seq;
    const signedSeq = BigInt(latest.seq);
    if (signedSeq > headSeq) {
      return `ledger rows after ${headSeq} are missing (signed checkpoint at ${signedSeq})`;
    }
    if (signedSeq < headSeq) return `ledger rows after ${signedSeq} carry no signed checkpoint`;
    const slots = await tx.slotCount();
    if (slots !== latest.slotCount) {
      return `license_slots holds ${slots} rows, the signed checkpoint ${latest.slotCount}`;
    }
    return undefined;
  }

  /** The ledger check at start (`DeploymentInstanceKeyBootstrap`). */
  async checkAtStart(): Promise<void> {
    await this.licenses.transaction(async (tx) => {
      const state = await tx.state();
      if (state?.tamperReason) {
        this.logger.error(
          { since: state.tamperAt?.toISOString(), reason: state.tamperReason },
          'license ledger in tamper: new issuance refused until POST /api/v1/license/reanchor',
        );
        return;
      }
      const problem = await this.integrityProblem(tx, state);
      if (problem) await this.enterTamper(problem, 'at start');
    });
  }

  /** Sets `tamper` with the failed check's reason (`when` names the check). */
  async enterTamper(reason: string, when: string): Promise<void> {
    await this.licenses.setTamper(reason, new Date());
    this.logger.error(
      { check: when, reason },
      'license ledger failed its integrity check: tamper (new issuance refused with license_tamper until POST /api/v1/license/reanchor)',
    );
  }

  /** Signs and stores a checkpoint of the current ledger head and slot count. */
  async checkpoint(tx: LicenseTx, at: Date, anchor: boolean): Promise<void> {
    const state = await tx.state();
    if (!state) return;
    const head = await tx.head();
    const facts: CheckpointFacts = {
      seq: head.seq,
      hash: head.hash,
      slotCount: await tx.slotCount(),
      anchor,
      prefixDigest: anchor ? ledgerDigest(await tx.entriesAfter(0n)) : null,
      at,
    };
    await tx.writeCheckpoint(facts, this.instanceKey.sign(state, checkpointMessage(facts)));
  }

  /** Whether a stored checkpoint carries a valid signature of the instance key. */
  checkpointVerifies(cp: LicenseCheckpointEntity, instancePublicKey: string): boolean {
    const key = ed25519PublicKey(instancePublicKey);
    if (!key) return false;
    const facts: CheckpointFacts = {
      seq: BigInt(cp.seq),
      hash: cp.hash,
      slotCount: cp.slotCount,
      anchor: cp.anchor,
      prefixDigest: cp.prefixDigest,
      at: cp.at,
    };
    const signature = Buffer.from(cp.signature, 'base64');
    return signature.length === 64 && verify(null, checkpointMessage(facts), key, signature);
  }
}
