import {
  Controller,
  Get,
  HttpCode,
  Logger,
  Module,
  NotFoundException,
  Param,
  Patch,
  Post,
} from '@nestjs/common';
import { RequestContext } from '../../src/app/request-context/request-context';
import { CurrentActor, Public, Roles } from '../../src/app/access/access.decorators';
import type { Actor } from '../../src/app/access/actor';

/**
 * Routes that exist only in tests. The agent polling probe uses PATCH on the real status
 * route's template (the log level rule goes by template; GET belongs to the agent module).
 */
@Controller('api/v1')
export class ProbeController {
  private readonly logger = new Logger('Probe');

  @Patch('requests/:id/status')
  @HttpCode(200)
  @Public()
  status(@Param('id') id: string): { status: string } {
    if (id === 'missing') throw new NotFoundException('no such request');
    return { status: 'pending' };
  }

  @Post('probe/enroll')
  @Public()
  @HttpCode(200)
  async enroll(): Promise<{ ok: true }> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    RequestContext.setSerial('SN-PROBE-1');
    RequestContext.attachError('csr_warning');
    this.logger.log('probe handled');
    return { ok: true };
  }

  @Get('probe/panic')
  @Public()
  panic(): never {
    throw new Error('probe exploded');
  }

  /** Shaped like the later approval route: people who approve and service accounts. */
  @Get('probe/approver')
  @Roles('cert-admin', 'cert-approver', 'cert-auto-approver')
  approver(@CurrentActor() actor: Actor): Actor {
    return actor;
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
