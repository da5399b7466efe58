import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_PREFIX } from '../../common/http/data-envelope.interceptor';
import { ApiDataResponse, ApiErrorResponses } from '../../common/http/api-responses';
import { AdminOnly } from '../auth/access/access.decorators';
import { CreateUserDto } from './dto/create-user.dto';
import { UserDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('admin')
@Controller(`${API_PREFIX}/admin/users`)
export class UsersController {
  constructor(private readonly users: UsersService) {}

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
}
