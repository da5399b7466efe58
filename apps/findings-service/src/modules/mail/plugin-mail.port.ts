import { Inject, Injectable, Logger } from '@nestjs/common';
import { hash } from 'node:crypto';
import {
  HostCallDenied,
  HostCallNotConfigured,
  openedSecrets,
  type PluginEventContext,
  type PluginMailPort,
} from '../plugin-runner-client/host-call-ports';
import {
  PROJECT_PREFIX,
  parseRecipients,
  projectServerRefusal,
  readServer,
  type SmtpServer,
} from './mail-settings';
import { MAIL_SECRETS, type MailSecretOpener } from './mail-secrets';
import { MailSendsRepository } from './mail-sends.repository';
import { MailSettingsRepository } from './mail-settings.repository';
import { SmtpTargetRefused, SmtpTargets } from './smtp-target';
import { SmtpTransports } from './smtp-transports';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `<sha256("findsvc-mail:" + event id)[0:32]@<from domain>>`: the same on every retry. */
export function messageIdFor(eventId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  return `<${hash('sha256', `findsvc-mail:${eventId}`, 'hex').slice(0, 32)}@${domain}>`;
}

/** Every secret value replaced in `text` (longest first, so a value inside another goes too). */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const value of [...new Set(secrets)]
    .filter((v) => v.length >= 4)
    .sort((a, b) => b.length - a.length)) {
    out = out.split(value).join('[redacted]');
  }
  return out;
}

/**
 * The `send-email` host call (docs/findings-service/mail.md): mail from an installed e-mail
 * channel to the recipients of the event's project only. The server is the installation's, or
 * the project's own when the installation allows it (`allow_project_smtp`, `smtp_allowed_hosts`).
 * Idempotent per event (`mail_sends`): a sent event answers its Message-ID without sending.
 */
@Injectable()
export class PluginMailSender implements PluginMailPort {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly settings: MailSettingsRepository,
    private readonly sends: MailSendsRepository,
    @Inject(MAIL_SECRETS) private readonly box: MailSecretOpener,
    private readonly targets: SmtpTargets,
    private readonly transports: SmtpTransports,
  ) {}

  async send(
    context: PluginEventContext,
    message: { subject: string; body: string },
  ): Promise<{ messageId: string }> {
    if (!UUID.test(context.eventId)) throw new HostCallDenied('the event id is not a delivery id');
    // The installation as the delivery's claim read it, else read here.
    const row =
      context.installation ?? (await this.settings.load(context.pluginId, context.projectId));
    if (!row || row.artifactSha256 !== context.versionDigest || !row.enabled) {
      throw new HostCallDenied('no such enabled installed plugin version');
    }
    const known = context.installation;
    const open = (sealed: string | null) => this.box.open(sealed);
    const secrets = known
      ? openedSecrets(known, 'installation', open)
      : this.box.open(row.secretSettings);
    const projectSettings = row.projectSettings ?? {};
    const projectSecrets = known
      ? openedSecrets(known, 'project', open)
      : this.box.open(row.projectSecretSettings);

    const installation = readServer(row.settings, secrets, '');
    if (!installation.ok)
      throw new HostCallNotConfigured(`the mail server (${installation.field})`);
    if (!installation.server) throw new HostCallNotConfigured('the mail server (smtp_host)');
    const own = readServer(projectSettings, projectSecrets, PROJECT_PREFIX);
    if (!own.ok) throw new HostCallDenied(`the project's mail server: ${own.field} ${own.problem}`);
    let server: SmtpServer = installation.server;
    if (own.server) {
      const refusal = projectServerRefusal(row.settings, own.server.host);
      if (refusal) throw new HostCallDenied(refusal);
      server = own.server;
    }
    const recipients = parseRecipients(projectSettings['recipients']);
    if (!recipients.ok)
      throw new HostCallNotConfigured(`the project's recipients (${recipients.problem})`);

    const allSecrets = [...Object.values(secrets), ...Object.values(projectSecrets)];
    const prefix =
      typeof projectSettings['subject_prefix'] === 'string'
        ? projectSettings['subject_prefix']
        : '';
    const subject = `${prefix} ${message.subject}`.replace(/[\r\n\0]+/g, ' ').trim();
    const messageId = messageIdFor(context.eventId, server.from);

    const record = await this.sends.begin({
      eventId: context.eventId,
      installedPluginId: context.pluginId,
      projectId: context.projectId,
      messageId,
      recipientCount: recipients.list.length,
    });
    if (record.state === 'sent') return { messageId: record.messageId };

    let target;
    try {
      target = await this.targets.check(server.host, server.port);
    } catch (error) {
      if (error instanceof SmtpTargetRefused) {
        throw new HostCallDenied(`the mail server is refused: ${error.message}`);
      }
      throw error;
    }
    await this.transports.send(server, target, {
      from: server.from,
      to: recipients.list,
      subject: scrubSecrets(subject, allSecrets),
      text: scrubSecrets(message.body, allSecrets),
      messageId: record.messageId,
      headers: { 'X-Findsvc-Idempotency-Key': `mail:${context.eventId}` },
    });
    await this.sends.markSent(context.eventId);
    this.logger.log(
      {
        plugin_id: context.pluginId,
        project_id: context.projectId,
        event_id: context.eventId,
        recipients: recipients.list.length,
      },
      'notification e-mail sent',
    );
    return { messageId: record.messageId };
  }
}
