import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import { IssuerDto } from './dto/issuer.dto';
import { IssuerRegistry } from './issuer-registry';

/** `GET /api/v1/issuer`: public (specification, "Public and service"); no secrets in it. */
@ApiTags('issuer')
@Controller('api/v1')
@Public()
export class IssuerController {
  constructor(private readonly registry: IssuerRegistry) {}

  @Get('issuer')
  @ApiOkResponse({ type: IssuerDto })
  async issuer(): Promise<IssuerDto> {
    await this.registry.ensureFresh();
    const byPurpose = this.registry.purposes().map((purpose) => {
      const status = this.registry.status(purpose);
      const c = status.issuer.capabilities();
      return {
        purpose,
        kind: c.kind,
        async: c.async,
        supports_revoke: c.supportsRevoke,
        supports_crl: c.supportsCrl,
        source: status.source,
        configured: status.configured,
        problem: status.problem,
      };
    });
    const main = this.registry.forPurpose('wifi').capabilities();
    return {
      kind: main.kind,
      async: main.async,
      supports_revoke: main.supportsRevoke,
      supports_crl: main.supportsCrl,
      purposes: [...main.purposes],
      by_purpose: byPurpose,
    };
  }
}
