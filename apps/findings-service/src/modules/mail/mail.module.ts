import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PluginStoreModule } from '../plugins/installed-plugins/plugin-store.module';
import { MailSendEntity } from './mail-send.entity';
import { MailSendsRepository } from './mail-sends.repository';
import { MailSettingsRepository } from './mail-settings.repository';
import { PluginMailSender } from './plugin-mail.port';
import { SmtpTargets } from './smtp-target';
import { SmtpTransports } from './smtp-transports';

/**
 * The service's SMTP sender (docs/findings-service/mail.md): the `send-email` host call of
 * the e-mail channel, through the shared outbound guard, idempotent per delivery.
 */
@Module({
  imports: [TypeOrmModule.forFeature([MailSendEntity]), PluginStoreModule],
  providers: [
    MailSendsRepository,
    MailSettingsRepository,
    SmtpTargets,
    SmtpTransports,
    PluginMailSender,
  ],
  exports: [PluginMailSender, MailSendsRepository],
})
export class MailModule {}
