import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { UuidParam } from '../../app/http/uuid-param';
import { AccessContext } from '../../app/access/access-context';
import { AdminOnly, CurrentAccess } from '../../app/access/access.decorators';
import { CreateUserDto } from './dto/create-user.dto';
import { SetUserEnabledDto } from './dto/set-user-enabled.dto';
import { UserDto } from './dto/user.dto';
import { UserLifecycleService } from './user-lifecycle.service';
import { UsersService } from './users.service';

@ApiTags('admin')
@Controller(`${API_PREFIX}/admin/users`)
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly lifecycle: UserLifecycleService,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiDataResponse(UserDto, { status: 201, description: 'User created' })
  @ApiErrorResponses(400, 401, 403, 409, 429)
  async create(@Body() body: CreateUserDto): Promise<UserDto> {
    const user = await this.users.create({
      email: body.email,
      displayName: body.display_name,
      password: body.password,
      isAdmin: body.is_admin,
    });
    return UserDto.from(user);
  }

  @Get()
  @AdminOnly()
  @ApiDataResponse(UserDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<UserDto[]> {
    return (await this.users.list()).map((u) => UserDto.from(u));
  }

  @Get(':id')
  @AdminOnly()
  @ApiDataResponse(UserDto)
  @ApiErrorResponses(401, 403, 404, 429)
  async get(@UuidParam('id') id: string): Promise<UserDto> {
    return UserDto.from(await this.users.get(id));
  }

  @Put(':id/enabled')
  @AdminOnly()
  @ApiDataResponse(UserDto, {
    description: 'Enabled or disabled (idempotent); disabling revokes every session at once',
  })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async setEnabled(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: SetUserEnabledDto,
  ): Promise<UserDto> {
    return UserDto.from(await this.lifecycle.setEnabled(access, id, body.enabled));
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({
    description: 'Deleted with its sessions and memberships; the action log keeps its entries',
  })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async delete(@CurrentAccess() access: AccessContext, @UuidParam('id') id: string): Promise<void> {
    await this.lifecycle.delete(access, id);
  }
}
