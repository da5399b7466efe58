import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Purpose } from '../../app/domain/purposes';
import { AuditService } from '../audit/audit.service';
import { LicenseSeatsService } from '../license/license-seats.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { DeviceEntity } from './device.entity';
import { DevicesError } from './devices.errors';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';
import { purposeAllowed } from './purpose-access';
import type { PurposeRequestEntity, PurposeRequestStatus } from './purpose-request.entity';
import { PurposeRequestsRepository, type PurposeRequestRow } from './purpose-requests.repository';

export type PurposeDecision = 'approve' | 'deny';

/** Outcome of a device asking for a purpose. */
export type PurposeAsk =
  | { status: 'already_allowed' }
  | { status: 'pending'; request: PurposeRequestEntity; created: boolean };

/** The queue of purposes devices asked for, and the administrator's decisions on it. */
@Injectable()
export class PurposeRequestsService {
  constructor(
    private readonly requests: PurposeRequestsRepository,
    private readonly devices: DevicesRepository,
    private readonly queries: DevicesService,
    private readonly audit: AuditService,
    private readonly license: LicenseSeatsService,
  ) {}

  /** A device asks for a purpose (idempotent while a request is pending). */
  async ask(device: DeviceEntity, purpose: Purpose, note: string | null): Promise<PurposeAsk> {
    const overrides = (await this.devices.overridesOf([device.id])).get(device.id) ?? {};
    if (purposeAllowed(purpose, device.assignedPurposes, overrides)) {
      return { status: 'already_allowed' };
    }
    const { request, created } = await this.requests.createPending({
      id: randomUUID(),
      deviceId: device.id,
      purpose,
      note,
    });
    return { status: 'pending', request, created };
  }

  queue(
    status: PurposeRequestStatus,
    limit: number,
    offset: number,
  ): Promise<{ items: PurposeRequestRow[]; total: number }> {
    return this.requests.queue(status, limit, offset);
  }

  async decide(
    actor: Actor,
    serial: string,
    purpose: Purpose,
    decision: PurposeDecision,
  ): Promise<PurposeRequestEntity> {
    const device = await this.queries.found(serial);
    // Approving assigns the purpose: the seat check of an assignment applies.
    const decided =
      decision === 'approve'
        ? await this.license.assignPurposes(device.id, [purpose], (em) =>
            this.requests.decide(device.id, purpose, 'approved', actorLabel(actor), em),
          )
        : await this.requests.decide(device.id, purpose, 'denied', actorLabel(actor));
    if (!decided) throw new DevicesError('purpose_request_not_found');
    await this.audit.record({
      action: 'device.purpose_request_decision',
      actor,
      target: serial,
      details: { purpose, decision, request_id: decided.id },
    });
    return decided;
  }
}
