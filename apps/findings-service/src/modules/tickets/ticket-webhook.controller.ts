import { Body, Controller, Head, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { TicketWebhookService } from './ticket-webhook.service';

export class TicketWebhookResultDto {
  @ApiProperty({
    enum: ['ignored', 'unchanged', 'updated'],
    description:
      'ignored: not about a known task or no state change; unchanged: the stored status already; updated: stored',
  })
  result!: string;
}

/**
 * A tracker's deliveries for one project. No credentials: the last path segment is the
 * project's webhook secret (written `[redacted]` in logs and traces); a wrong or stale one is
 * 404 `not_found`, like an unknown project.
 */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/webhooks/ticketing/:project_id/:secret`)
@Public()
export class TicketWebhookController {
  constructor(private readonly webhooks: TicketWebhookService) {}

  @Post()
  @HttpCode(200)
  @ApiDataResponse(TicketWebhookResultDto)
  @ApiErrorResponses(400, 404, 413, 415, 422, 429, 503)
  async receive(
    @UuidParam('project_id') projectId: string,
    @Param('secret') secret: string,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
  ): Promise<TicketWebhookResultDto> {
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? {});
    const { result } = await this.webhooks.receive(projectId, secret, headers, text);
    return { result };
  }

  /** A tracker's check that the address answers (Trello registers a webhook this way). */
  @Head()
  @HttpCode(200)
  check(): void {
    return undefined;
  }
}
