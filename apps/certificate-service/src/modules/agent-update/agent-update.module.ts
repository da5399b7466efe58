import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { AgentUpdateController } from './agent-update.controller';
import { AgentUpdateRepository } from './agent-update.repository';
import { AgentUpdateService } from './agent-update.service';

/** `GET /api/v1/settings/agent-update/stuck` and `/platform-update` (read only). */
@Module({
  imports: [SettingsModule],
  controllers: [AgentUpdateController],
  providers: [AgentUpdateRepository, AgentUpdateService],
})
export class AgentUpdateModule {}
