import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AgentAuth } from '../../app/access/access.decorators';
import { AgentDirective, DirectiveAgentGuard } from './directive-agent.guard';
import { DirectiveDto, DirectiveReportDto } from './dto/issuance-directive.dto';
import type { IssuanceDirectiveEntity } from './issuance-directive.entity';
import { IssuanceDirectivesService } from './issuance-directives.service';

/** The agent reports the outcome of a directive it received with a check-in answer. */
@ApiTags('agent')
@ApiHeader({ name: 'X-Agent-Secret', required: true })
@Controller('api/v1/enroll/issuance-directives/:id')
@AgentAuth()
@UseGuards(DirectiveAgentGuard)
export class DirectiveReportController {
  constructor(private readonly directives: IssuanceDirectivesService) {}

  @Post('report')
  @HttpCode(200)
  @ApiOkResponse({ type: DirectiveDto })
  async report(
    @AgentDirective() directive: IssuanceDirectiveEntity,
    @Body() body: DirectiveReportDto,
  ): Promise<DirectiveDto> {
    const row = await this.directives.report(directive, body.outcome, body.message ?? null);
    return DirectiveDto.from(row);
  }
}
