import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { toCsv } from '../../app/http/csv';
import { CsvExport } from '../../app/http/csv-export.decorator';
import { pageOf } from '../../app/http/paging.dto';
import { Roles } from '../../app/access/access.decorators';
import { READER_ROLES } from '../../app/access/roles';
import { AuditQueryDto } from './dto/audit-query.dto';
import { AuditPageDto, AuditRecordDto } from './dto/audit-record.dto';
import { AuditService } from './audit.service';

const CSV_MAX_ROWS = 100_000;

@ApiTags('audit')
@Controller('api/v1')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('audit')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: AuditPageDto })
  async list(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.audit.page(query, limit, offset);
    return { items: items.map(AuditRecordDto.from), page, limit, total };
  }

  @CsvExport('audit.csv', 'audit records as CSV, newest first')
  @Roles(...READER_ROLES)
  async csv(@Query() query: AuditQueryDto): Promise<string> {
    const records = await this.audit.export(query, CSV_MAX_ROWS);
    return toCsv(
      ['id', 'at', 'action', 'actor', 'actor_kind', 'target', 'details'],
      records.map((r) => [
        r.id,
        r.at,
        r.action,
        r.actor,
        r.actorKind,
        r.target,
        JSON.stringify(r.details),
      ]),
    );
  }
}
