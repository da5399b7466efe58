import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { VerifyFindingAnswerDto, VerifyFindingDto } from './dto/scanner-callbacks.dto';
import { ScannerCallbacksService } from './scanner-callbacks.service';

/**
 * `POST /api/v1/scanner-callbacks/verify-finding`: a scanner's re-verification answers. No user
 * or service-account credentials: the request is authenticated by its signature (key id,
 * timestamp, HMAC over timestamp and body; docs/findings-service/auto-closure.md#callbacks).
 */
@ApiTags('scanner-callbacks')
@Controller(`${API_PREFIX}/scanner-callbacks`)
@Public()
export class ScannerCallbacksController {
  constructor(private readonly callbacks: ScannerCallbacksService) {}

  @Post('verify-finding')
  @HttpCode(200)
  @ApiHeader({ name: 'X-Scanner-Key-Id', required: true, description: 'the key’s public id' })
  @ApiHeader({ name: 'X-Scanner-Timestamp', required: true, description: 'Unix seconds' })
  @ApiHeader({
    name: 'X-Scanner-Signature',
    required: true,
    description:
      '`v1=` + hex HMAC-SHA256 of `<timestamp>.<raw body>`; comma-separated list allowed',
  })
  @ApiDataResponse(VerifyFindingAnswerDto)
  @ApiErrorResponses(400, 401, 409, 429)
  async verifyFinding(
    @Req() request: FastifyRequest,
    @Headers('x-scanner-key-id') keyId: string | undefined,
    @Headers('x-scanner-timestamp') timestamp: string | undefined,
    @Headers('x-scanner-signature') signature: string | undefined,
    @Body() body: VerifyFindingDto,
  ): Promise<VerifyFindingAnswerDto> {
    const raw = (request as FastifyRequest & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const answer = await this.callbacks.receive(
      { keyId, timestamp, signature },
      raw,
      body.results.map((r) => ({
        findingId: r.finding_id.toLowerCase(),
        result: r.result,
        ...(r.request_id ? { requestId: r.request_id.toLowerCase() } : {}),
        ...(body.scanner ? { scanner: body.scanner } : {}),
        ...(r.details ? { details: r.details } : {}),
      })),
    );
    return { recorded: answer.recorded, ignored: answer.ignored, closed: answer.closed };
  }
}
