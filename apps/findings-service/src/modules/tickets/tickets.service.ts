import { Injectable } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../app/access/access-context';
import { actorOf } from '../action-log/finding-action';
import { ProjectPluginConfig } from '../plugin-channels/project-plugin-config';
import { ticketLabel } from './ticket-labels';
import {
  TicketProviderGateway,
  type ProjectProvider,
  type TicketContext,
} from './ticket-provider.gateway';
import { TicketsRepository, type TicketFinding, type TicketView } from './tickets.repository';
import type { TicketOrigin, TicketStatus } from './tickets.entities';
import { TicketsError } from './tickets.errors';

interface TaskRef {
  id: string;
  key: string;
  url: string;
}

/** The signed-in user acting (ticket routes take user tokens only). */
const userOf = (access: AccessContext): string | null =>
  access.principal.kind === 'user' ? access.principal.id : null;

const WIT_STATUS: Record<string, TicketStatus> = {
  open: 'open',
  'in-progress': 'in_progress',
  resolved: 'resolved',
  closed: 'closed',
};

/**
 * Tasks in a project's tracker for its findings (docs/findings-service/tickets.md): create one
 * (found again by its label when it already exists), link an existing one, one task for a group,
 * the semi-manual creation form, the project's targets. Acting on findings needs
 * write_findings on each; a finding the caller cannot read is 404.
 */
@Injectable()
export class TicketsService {
  constructor(
    private readonly repository: TicketsRepository,
    private readonly gateway: TicketProviderGateway,
    private readonly projectConfig: ProjectPluginConfig,
  ) {}

  async targets(access: AccessContext, projectId: string): Promise<{ id: string; name: string }[]> {
    await this.projectConfig.assertVisible(access, projectId);
    const provider = await this.gateway.forProject(projectId);
    return this.gateway.call<{ id: string; name: string }[]>(provider, 'list-targets', {});
  }

  async create(
    access: AccessContext,
    findingId: string,
    input: { target?: string; comment?: string },
  ): Promise<TicketView> {
    const [finding] = await this.writable(access, [findingId]);
    if (finding?.ticketId) throw new TicketsError('ticket_exists', { finding_id: findingId });
    const found = finding as TicketFinding;
    const provider = await this.gateway.forProject(found.projectId);
    const ticketId = await this.createAndLink(access, provider, [found], {
      target: input.target ?? provider.settings.defaultTarget,
      title: found.title,
      origin: 'created',
      replace: false,
    });
    const ticket = await this.shown(ticketId);
    if (input.comment) {
      await this.gateway.call(provider, 'add-comment', {
        taskId: ticket.taskId,
        body: input.comment,
      });
    }
    return ticket;
  }

  async link(
    access: AccessContext,
    findingId: string,
    input: { taskId?: string; byLabel?: boolean; replace?: boolean },
  ): Promise<TicketView> {
    const [finding] = (await this.writable(access, [findingId])) as [TicketFinding];
    if (finding.ticketId && !input.replace) {
      throw new TicketsError('ticket_exists', { finding_id: findingId });
    }
    if (!input.taskId && !input.byLabel) {
      throw new InputValidationError([
        { field: 'task_id', problems: ['required unless by_label is true'] },
      ]);
    }
    const provider = await this.gateway.forProject(finding.projectId);
    const label = ticketLabel([finding.id]);
    let taskId = input.taskId;
    let taskKey = input.taskId;
    if (!taskId) {
      const ref = await this.gateway.call<TaskRef | null>(provider, 'find-task-by-label', {
        label,
      });
      if (!ref) {
        throw new TicketsError('ticket_provider_error', {
          kind: 'not-found',
          reason: 'not-found',
          problem: `no task carries the label ${label}`,
        });
      }
      taskId = ref.id;
      taskKey = ref.key;
    }
    // read-status proves the task exists; build-link gives its address.
    const state = await this.gateway.call<{ status: string; raw: string }>(
      provider,
      'read-status',
      {
        taskId,
      },
    );
    const url = await this.gateway.call<string>(provider, 'build-link', { taskId });
    const ticketId = await this.repository.transaction(async (manager) => {
      const id = await this.repository.upsertTicket(manager, {
        projectId: finding.projectId,
        pluginId: provider.plugin.id,
        taskId: taskId as string,
        taskKey: taskKey as string,
        url,
        status: WIT_STATUS[state.status] ?? 'open',
        rawStatus: state.raw,
        origin: 'linked',
        label,
        createdBy: userOf(access),
        statusRead: true,
      });
      await this.repository.link(manager, id, [finding.id], actorOf(access), true);
      return id;
    });
    return this.shown(ticketId);
  }

  async bulk(
    access: AccessContext,
    input: { findingIds: string[]; title: string; target?: string; skipTicketed: boolean },
  ): Promise<{ ticket: TicketView; linked: string[]; skipped: string[] }> {
    const findings = await this.writable(access, input.findingIds);
    const projectId = this.oneProject(findings);
    const skipped = findings.filter((f) => f.ticketId !== null).map((f) => f.id);
    if (skipped.length > 0 && !input.skipTicketed) {
      throw new TicketsError('ticket_exists', { finding_ids: skipped });
    }
    const open = findings.filter((f) => f.ticketId === null);
    if (open.length === 0) {
      throw new InputValidationError([
        { field: 'finding_ids', problems: ['every finding already has a ticket'] },
      ]);
    }
    const provider = await this.gateway.forProject(projectId);
    const ticketId = await this.createAndLink(access, provider, open, {
      target: input.target ?? provider.settings.defaultTarget,
      title: input.title,
      origin: 'group',
      replace: false,
    });
    return {
      ticket: await this.shown(ticketId),
      linked: open.map((f) => f.id),
      skipped,
    };
  }

  /** The creation form of the tracker prefilled with the label (semi-manual); nothing stored. */
  async creationFormUrl(
    access: AccessContext,
    input: { findingIds: string[]; target?: string },
  ): Promise<{ url: string; label: string }> {
    const findings = await this.writable(access, input.findingIds);
    const provider = await this.gateway.forProject(this.oneProject(findings));
    const label = ticketLabel(findings.map((f) => f.id));
    const context = this.context(
      findings,
      findings[0]?.title ?? '',
      label,
      input.target ?? provider.settings.defaultTarget,
    );
    const url = await this.gateway.call<string>(provider, 'build-link', { taskId: '' }, context);
    return { url, label };
  }

  /**
   * One task for the findings, created only when no task carries their label yet (under an
   * advisory lock of the label, so a double click or two replicas make one task).
   */
  private async createAndLink(
    access: AccessContext,
    provider: ProjectProvider,
    findings: TicketFinding[],
    options: { target: string | null; title: string; origin: TicketOrigin; replace: boolean },
  ): Promise<string> {
    const label = ticketLabel(findings.map((f) => f.id));
    const context = this.context(findings, options.title, label, options.target);
    return this.repository.transaction(async (manager) => {
      await this.repository.lockLabel(manager, label);
      const again = await this.repository.findings(
        findings.map((f) => f.id),
        manager,
      );
      if (findings.length === 1 && again[0]?.ticketId) {
        throw new TicketsError('ticket_exists', { finding_id: findings[0]?.id });
      }
      let ref = await this.gateway.call<TaskRef | null>(
        provider,
        'find-task-by-label',
        { label },
        context,
      );
      ref ??=
        findings.length === 1
          ? await this.gateway.call<TaskRef>(
              provider,
              'create-task',
              { target: options.target ?? undefined, finding: findings[0]?.witFinding },
              context,
            )
          : await this.gateway.call<TaskRef>(
              provider,
              'create-group-task',
              {
                target: options.target ?? undefined,
                title: options.title,
                findings: findings.map((f) => f.witFinding),
              },
              context,
            );
      const id = await this.repository.upsertTicket(manager, {
        projectId: provider.settings.projectId,
        pluginId: provider.plugin.id,
        taskId: ref.id,
        taskKey: ref.key,
        url: ref.url,
        status: 'open',
        rawStatus: '',
        origin: options.origin,
        label,
        createdBy: userOf(access),
        statusRead: false,
      });
      await this.repository.link(
        manager,
        id,
        findings.map((f) => f.id),
        actorOf(access),
        options.replace,
      );
      return id;
    });
  }

  private context(
    findings: TicketFinding[],
    title: string,
    label: string,
    target: string | null,
  ): TicketContext {
    return {
      title,
      label,
      target,
      findings: findings.map((f) => ({ id: f.id, title: f.title, url: `/findings/${f.id}` })),
    };
  }

  /**
   * The findings, each readable (else 404 `finding_not_found`, nothing done) and writable by
   * the caller (else 403 `access_denied`).
   */
  private async writable(access: AccessContext, ids: string[]): Promise<TicketFinding[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const findings = await this.repository.findings(unique);
    const readable = findings.filter((f) => access.can('read_findings', f));
    if (readable.length !== unique.length) {
      const known = new Set(readable.map((f) => f.id));
      throw new TicketsError('finding_not_found', {
        finding_ids: unique.filter((id) => !known.has(id)),
      });
    }
    if (readable.some((f) => !access.can('write_findings', f))) {
      throw new TicketsError('access_denied');
    }
    return readable;
  }

  private oneProject(findings: TicketFinding[]): string {
    const projects = new Set(findings.map((f) => f.projectId));
    if (projects.size !== 1) {
      throw new InputValidationError([
        { field: 'finding_ids', problems: ['the findings must belong to one project'] },
      ]);
    }
    return [...projects][0] as string;
  }

  private async shown(ticketId: string): Promise<TicketView> {
    return (await this.repository.ticket(ticketId)) as TicketView;
  }
}
