import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { CurrentUser, Public, SignedIn } from '../../app/access/access.decorators';
import type { HumanActor } from '../../app/access/actor';
import { AuthError } from './auth.errors';
import { AuthService, type Session } from './auth.service';
import {
  ChangePasswordDto,
  LocalLoginDto,
  OidcCallbackDto,
  RefreshDto,
} from './dto/auth-requests.dto';
import { AuthConfigDto, MeDto, TokenDto } from './dto/auth-responses.dto';
import { clearRefreshCookie, refreshCookieOf, setRefreshCookie } from './refresh-cookie';

@ApiTags('auth')
@Controller('api/v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  @Post('local/login')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: TokenDto })
  async login(
    @Body() body: LocalLoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenDto> {
    const peer = {
      peer: request.socket.remoteAddress ?? '',
      forwardedFor: request.headers['x-forwarded-for'],
    };
    return this.answer(reply, await this.auth.loginLocal(body.email, body.password, peer));
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: TokenDto })
  async refresh(
    @Body() body: RefreshDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenDto> {
    return this.answer(
      reply,
      await this.auth.refresh(body.refresh_token ?? refreshCookieOf(request)),
    );
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'the session of the presented refresh token is ended' })
  async logout(
    @Body() body: RefreshDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.auth.logout(body.refresh_token ?? refreshCookieOf(request));
    clearRefreshCookie(reply, !this.config.devMode);
  }

  @Get('me')
  @SignedIn()
  @ApiOkResponse({ type: MeDto })
  me(@CurrentUser() user: HumanActor): MeDto {
    return { email: user.email, role: user.role, roles: [...user.roles] };
  }

  @Get('config')
  @Public()
  @ApiOkResponse({ type: AuthConfigDto })
  authConfig(): AuthConfigDto {
    return {
      local_enabled: this.config.localAuth.enabled,
      oidc: {
        enabled: false,
        issuer: null,
        client_id: null,
        authorization_endpoint: null,
        scopes: ['openid', 'email', 'profile'],
        code_challenge_method: 'S256',
      },
    };
  }

  @Post('callback')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: TokenDto })
  callback(@Body() _body: OidcCallbackDto): Promise<TokenDto> {
    return Promise.reject(new AuthError('oidc_disabled'));
  }

  @Post('change-password')
  @SignedIn()
  @HttpCode(204)
  @ApiNoContentResponse({
    description: 'password changed; every refresh token of the user is revoked',
  })
  async changePassword(
    @CurrentUser() user: HumanActor,
    @Body() body: ChangePasswordDto,
  ): Promise<void> {
    await this.auth.changePassword(user, body.current_password, body.new_password);
  }

  private answer(reply: FastifyReply, session: Session): TokenDto {
    setRefreshCookie(reply, session.refreshToken, session.refreshExpiresAt, !this.config.devMode);
    return TokenDto.from(session);
  }
}
