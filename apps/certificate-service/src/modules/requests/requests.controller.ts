import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { toCsv } from '../../app/http/csv';
import { CsvExport } from '../../app/http/csv-export.decorator';
import { Roles } from '../../app/access/access.decorators';
import { ROLES } from '../../app/access/roles';
import { pageOf } from '../../app/http/paging.dto';
import { requestFilterOf, RequestQueryDto } from './dto/request-query.dto';
import { CertificateRequestDto, CertificateRequestPageDto } from './dto/request.dto';
import { RequestsService } from './requests.service';

const CSV_MAX_ROWS = 100_000;

/** Readable by all four roles (the auto-approver reads what it approves). */
@ApiTags('requests')
@Controller('api/v1')
@Roles(...ROLES)
export class RequestsController {
  constructor(private readonly requests: RequestsService) {}

  @Get('requests')
  @ApiOkResponse({ type: CertificateRequestPageDto })
  async list(@Query() query: RequestQueryDto): Promise<CertificateRequestPageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.requests.page(requestFilterOf(query), limit, offset);
    return { items: items.map(CertificateRequestDto.from), page, limit, total };
  }

  @CsvExport('requests.csv', 'requests as CSV, newest first')
  async csv(@Query() query: RequestQueryDto): Promise<string> {
    const rows = await this.requests.export(requestFilterOf(query), CSV_MAX_ROWS);
    return toCsv(
      [
        'id',
        'serial',
        'purpose',
        'status',
        'requested_by',
        'user_identity',
        'registered_during_block',
        'created_at',
        'decided_at',
        'decided_by',
      ],
      rows.map(({ request: r, serial }) => [
        r.id,
        serial,
        r.purpose,
        r.status,
        r.requestedBy,
        r.userIdentity,
        r.registeredDuringBlock,
        r.createdAt,
        r.decidedAt,
        r.decidedBy,
      ]),
    );
  }
}
