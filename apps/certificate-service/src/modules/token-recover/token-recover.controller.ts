import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import { EnrollRateLimitGuard } from '../enrollment/enroll-rate-limit.guard';
import { TokenRecoverDto, TokenRecoverResponseDto } from './dto/token-recover.dto';
import { TokenRecoverService } from './token-recover.service';

/**
 * `POST /api/v1/enroll/token-recover`: no session and no enrollment token (it is what was
 * lost); a signature with a pinned key over a one-time nonce, and the enroll limit per address.
 */
@ApiTags('enrollment')
@Controller('api/v1/enroll')
@Public()
@UseGuards(EnrollRateLimitGuard)
export class TokenRecoverController {
  constructor(private readonly recovery: TokenRecoverService) {}

  @Post('token-recover')
  @HttpCode(200)
  @ApiOkResponse({ type: TokenRecoverResponseDto })
  async tokenRecover(@Body() body: TokenRecoverDto): Promise<TokenRecoverResponseDto> {
    const result = await this.recovery.recover({
      serial: body.serial,
      nonce: body.nonce,
      key: body.key,
      signature: body.signature,
    });
    return { serial: result.serial, enrollment_token: result.enrollmentToken };
  }
}
