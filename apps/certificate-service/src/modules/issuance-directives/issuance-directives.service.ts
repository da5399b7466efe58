import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { actorLabel, type Actor } from '../../app/access/actor';
import { normalizePerson } from '../../app/domain/principal-name';
import { AuditService } from '../audit/audit.service';
import type { DeviceEntity } from '../devices/device.entity';
import { DevicesRepository } from '../devices/devices.repository';
import type { DirectiveOutcome, DirectivePurpose, DirectiveState } from './directive-states';
import type { IssuanceDirectiveEntity } from './issuance-directive.entity';
import { IssuanceDirectivesError } from './issuance-directives.errors';
import { IssuanceDirectivesRepository, type DirectiveRow } from './issuance-directives.repository';

export interface NewDirectiveInput {
  purpose: DirectivePurpose;
  user: string;
  upn?: string;
}

/** Issuance directives: a user purpose addressed to one person on one device. */
@Injectable()
export class IssuanceDirectivesService {
  constructor(
    private readonly directives: IssuanceDirectivesRepository,
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
  ) {}

  queue(
    state: DirectiveState | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: DirectiveRow[]; total: number }> {
    return this.directives.page({ state }, limit, offset);
  }

  /** Every directive of a device, newest first (at most `max`). */
  async ofDevice(serial: string, max: number): Promise<DirectiveRow[]> {
    const device = await this.device(serial);
    return (await this.directives.page({ deviceId: device.id }, max, 0)).items;
  }

  /** 404 unknown device, 403 blocked device, 409 when the same one is already open. */
  async create(actor: Actor, serial: string, input: NewDirectiveInput): Promise<DirectiveRow> {
    const device = await this.device(serial);
    if (device.blocked) throw new IssuanceDirectivesError('device_blocked');
    const id = randomUUID();
    const person = normalizePerson(input.user);
    const upn = input.upn?.trim() ?? null;
    const created = await this.directives.create(
      {
        id,
        deviceId: device.id,
        purpose: input.purpose,
        person,
        upn,
        createdBy: actorLabel(actor),
      },
      device.serial,
    );
    if (!created) throw new IssuanceDirectivesError('issuance_directive_exists');
    await this.audit.record({
      action: 'issuance_directive.create',
      actor,
      target: serial,
      details: { id, purpose: input.purpose, user: person, upn },
    });
    return this.row(id);
  }

  /** Cancels an open directive; cancelling a cancelled one again changes nothing. */
  async cancel(actor: Actor, id: string): Promise<void> {
    const row = await this.row(id);
    const { directive, serial } = row;
    if (directive.state === 'cancelled') return;
    if (!(await this.directives.cancel(row, actorLabel(actor), new Date()))) {
      const now = await this.row(id);
      if (now.directive.state === 'cancelled') return;
      throw new IssuanceDirectivesError('issuance_directive_closed');
    }
    await this.audit.record({
      action: 'issuance_directive.cancel',
      actor,
      target: serial,
      details: { id, purpose: directive.purpose, user: directive.person, was: directive.state },
    });
  }

  /**
   * The agent's outcome. The same outcome again answers the stored directive (a retried
   * report); another outcome after a report is 409 `issuance_directive_closed`, a cancelled
   * directive 409 `issuance_directive_cancelled`.
   */
  async report(
    directive: IssuanceDirectiveEntity,
    outcome: DirectiveOutcome,
    message: string | null,
  ): Promise<DirectiveRow> {
    const settle = (state: DirectiveState): void => {
      if (state === 'cancelled') throw new IssuanceDirectivesError('issuance_directive_cancelled');
      if (state !== outcome) throw new IssuanceDirectivesError('issuance_directive_closed');
    };
    if (directive.state !== 'pending' && directive.state !== 'delivered') {
      settle(directive.state);
      return this.row(directive.id);
    }
    const row = await this.row(directive.id);
    if (!(await this.directives.report(row, outcome, message, new Date()))) {
      settle((await this.row(directive.id)).directive.state);
    }
    return this.row(directive.id);
  }

  /** Check-in: the device's open directives, now `delivered`. */
  deliver(deviceId: string): Promise<IssuanceDirectiveEntity[]> {
    return this.directives.deliverOpen(deviceId, new Date());
  }

  private async device(serial: string): Promise<DeviceEntity> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new IssuanceDirectivesError('device_not_found');
    return device;
  }

  private async row(id: string): Promise<DirectiveRow> {
    const row = isUUID(id, 'loose') ? await this.directives.row(id) : null;
    if (!row) throw new IssuanceDirectivesError('issuance_directive_not_found');
    return row;
  }
}
