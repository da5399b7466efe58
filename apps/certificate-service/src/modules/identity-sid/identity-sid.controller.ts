import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import { EnrollRateLimitGuard } from '../enrollment/enroll-rate-limit.guard';
import { IdentitySidRequestDto, IdentitySidResponseDto } from './dto/identity-sid.dto';
import { IdentitySidService } from './identity-sid.service';

/**
 * `POST /api/v1/enroll/identity-sid`: no session; serial and enrollment token, the enroll
 * limit per address and a budget per device instead (docs/certificate-service/identity-sid.md).
 */
@ApiTags('enrollment')
@Controller('api/v1/enroll')
@Public()
@UseGuards(EnrollRateLimitGuard)
export class IdentitySidController {
  constructor(private readonly identities: IdentitySidService) {}

  @Post('identity-sid')
  @HttpCode(200)
  @ApiOkResponse({ type: IdentitySidResponseDto })
  async identitySid(@Body() body: IdentitySidRequestDto): Promise<IdentitySidResponseDto> {
    return this.identities.lookup(body.serial, body.enrollment_token, body.upn);
  }
}
