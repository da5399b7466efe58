import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { toCsv } from '../../app/http/csv';
import { CsvExport } from '../../app/http/csv-export.decorator';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  CreateLocalUserDto,
  SetEnabledDto,
  SetPasswordDto,
  SetRolesDto,
} from './dto/user-requests.dto';
import { UserDto, UserListDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('api/v1/users')
@Roles('cert-admin')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOkResponse({ type: UserListDto })
  async list(): Promise<UserListDto> {
    return { items: (await this.users.list()).map(UserDto.from) };
  }

  @Post('local')
  @ApiCreatedResponse({ type: UserDto })
  async createLocal(
    @CurrentActor() actor: Actor,
    @Body() body: CreateLocalUserDto,
  ): Promise<UserDto> {
    return UserDto.from(
      await this.users.createLocal(actor, body.email, body.password, body.roles ?? []),
    );
  }

  @Put(':email/roles')
  @ApiOkResponse({ type: UserDto })
  async setRoles(
    @CurrentActor() actor: Actor,
    @Param('email') email: string,
    @Body() body: SetRolesDto,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.setRoles(actor, email, body.roles));
  }

  @Put(':email/enabled')
  @ApiOkResponse({ type: UserDto })
  async setEnabled(
    @CurrentActor() actor: Actor,
    @Param('email') email: string,
    @Body() body: SetEnabledDto,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.setEnabled(actor, email, body.enabled));
  }

  @Put(':email/password')
  @HttpCode(204)
  @ApiNoContentResponse({ description: "password replaced; the user's sessions are ended" })
  async setPassword(
    @CurrentActor() actor: Actor,
    @Param('email') email: string,
    @Body() body: SetPasswordDto,
  ): Promise<void> {
    await this.users.resetPassword(actor, email, body.password);
  }
}

/** `GET /api/v1/users.csv` sits beside the users collection, not under it. */
@ApiTags('users')
@Controller('api/v1')
@Roles('cert-admin')
export class UsersCsvController {
  constructor(private readonly users: UsersService) {}

  @CsvExport('users.csv', 'users as CSV')
  async csv(): Promise<string> {
    const users = (await this.users.list()).map(UserDto.from);
    return toCsv(
      ['email', 'local', 'enabled', 'role', 'roles', 'created_at', 'last_login_at'],
      users.map((u) => [
        u.email,
        u.local,
        u.enabled,
        u.role,
        u.roles.join(' '),
        u.created_at,
        u.last_login_at,
      ]),
    );
  }
}
