import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import {
  DeviceSshKeyDto,
  DeviceSshKeyListDto,
  RegisterSshKeyDto,
  SshKeyDeviceCredentialsDto,
} from './dto/ssh-key.dto';
import { SshKeyEnrollRateLimitGuard } from './ssh-key-enroll-rate-limit.guard';
import { SshKeyEnrollmentService } from './ssh-key-enrollment.service';

/** Device side of the SSH key registry: serial + enrollment token, rate limited like /enroll. */
@ApiTags('enrollment')
@Controller('api/v1/enroll/ssh-key')
@Public()
@UseGuards(SshKeyEnrollRateLimitGuard)
export class SshKeyEnrollmentController {
  constructor(private readonly enrollment: SshKeyEnrollmentService) {}

  @Post()
  @ApiCreatedResponse({
    type: DeviceSshKeyDto,
    description:
      'registered (pending; active under auto-approval; rejected by the binding check at enforce); the same key sent again by the same device answers its record',
  })
  async register(@Body() body: RegisterSshKeyDto): Promise<DeviceSshKeyDto> {
    const { key } = await this.enrollment.register({
      serial: body.serial,
      enrollmentToken: body.enrollment_token,
      publicKey: body.public_key,
      comment: body.comment ?? null,
      user: body.user ?? null,
    });
    return DeviceSshKeyDto.from(key);
  }

  @Post('status')
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceSshKeyListDto })
  async status(@Body() body: SshKeyDeviceCredentialsDto): Promise<DeviceSshKeyListDto> {
    const keys = await this.enrollment.status(body.serial, body.enrollment_token);
    return { serial: body.serial, keys: keys.map(DeviceSshKeyDto.from) };
  }
}
