import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { UserDto } from '../users/dto/user.dto';
import { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, Public, RateLimit, UserOnly } from '../../app/access/access.decorators';
import { AuthService, Session } from './auth.service';
import { AuthConfigDto } from './dto/auth-config.dto';
import { LoginDto } from './dto/login.dto';
import { MeDto } from './dto/me.dto';
import { TokenResponseDto } from './dto/token-response.dto';
import {
  clearRefreshCookie,
  readRefreshCookie,
  REFRESH_COOKIE,
  setRefreshCookie,
} from './refresh-cookie';

@ApiTags('auth')
@Controller(`${API_PREFIX}/auth`)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
  ) {}

  @Get('config')
  @Public()
  @ApiDataResponse(AuthConfigDto)
  authConfig(): AuthConfigDto {
    return this.auth.authConfig();
  }

  @Post('local/login')
  @HttpCode(200)
  @Public()
  @RateLimit('auth')
  @ApiDataResponse(TokenResponseDto, {
    description: 'Signed in; refresh token set in the findsvc_refresh cookie',
  })
  @ApiErrorResponses(400, 401, 404, 429)
  async login(
    @Body() body: LoginDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    return this.answer(await this.auth.loginLocal(body.login, body.password), reply);
  }

  @Post('token/refresh')
  @HttpCode(200)
  @Public()
  @ApiCookieAuth(REFRESH_COOKIE)
  @ApiDataResponse(TokenResponseDto, {
    description: 'New access token; the refresh cookie is rotated',
  })
  @ApiErrorResponses(401, 429)
  async refresh(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    try {
      return this.answer(await this.auth.refresh(readRefreshCookie(request)), reply);
    } catch (err) {
      clearRefreshCookie(reply, this.config.cookieSecure);
      throw err;
    }
  }

  @Post('logout')
  @HttpCode(204)
  @Public({ optionalUser: true })
  @ApiNoContentResponse({ description: 'All refresh tokens of the user revoked; cookie cleared' })
  @ApiErrorResponses(401, 429)
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentAccess() access: AccessContext | undefined,
  ): Promise<void> {
    const userId = access?.isUser ? access.principal.id : undefined;
    await this.auth.logout(userId, readRefreshCookie(request));
    clearRefreshCookie(reply, this.config.cookieSecure);
  }

  @Get('me')
  @UserOnly()
  @ApiDataResponse(MeDto)
  @ApiErrorResponses(401, 403, 429)
  me(@CurrentAccess() access: AccessContext): Promise<MeDto> {
    return this.auth.me(access);
  }

  private answer(session: Session, reply: FastifyReply): TokenResponseDto {
    setRefreshCookie(
      reply,
      session.refreshToken,
      session.refreshMaxAgeSeconds,
      this.config.cookieSecure,
    );
    return {
      access_token: session.accessToken,
      token_type: 'Bearer',
      expires_in: session.expiresIn,
      user: UserDto.from(session.user),
    };
  }
}
