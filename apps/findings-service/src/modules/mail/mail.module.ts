import { Module, type DynamicModule, type ModuleMetadata, type Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailSendEntity } from './mail-send.entity';
import { MAIL_SECRETS, type MailSecretOpener } from './mail-secrets';
import { MailSendsRepository } from './mail-sends.repository';
import { MailSettingsRepository } from './mail-settings.repository';
import { PluginMailSender } from './plugin-mail.port';
import { SmtpTargets } from './smtp-target';
import { SmtpTransports } from './smtp-transports';

/**
 * The service's SMTP sender (docs/findings-service/mail.md): the `send-email` host call of
 * the e-mail channel, through the shared outbound guard, idempotent per delivery. The plugins
 * module registers it with the box that opens the channel's sealed secret settings (so this
 * module depends on no plugin module).
 */
@Module({})
export class MailModule {
  static register(options: {
    imports: NonNullable<ModuleMetadata['imports']>;
    secrets: Type<MailSecretOpener>;
  }): DynamicModule {
    return {
      module: MailModule,
      imports: [TypeOrmModule.forFeature([MailSendEntity]), ...options.imports],
      providers: [
        { provide: MAIL_SECRETS, useExisting: options.secrets },
        MailSendsRepository,
        MailSettingsRepository,
        SmtpTargets,
        SmtpTransports,
        PluginMailSender,
      ],
      exports: [PluginMailSender],
    };
  }
}
