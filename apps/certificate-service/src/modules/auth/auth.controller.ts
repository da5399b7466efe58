import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  BodyOrCookieRefreshTransport,
  DEFAULT_OIDC_SCOPES,
  RefreshCookie,
  type RefreshTokenTransport,
} from '@platform/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser, Public, SignedIn } from '../../app/access/access.decorators';
import type { HumanActor } from '../../app/access/actor';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuthService, type ClientPeer, type Session } from './auth.service';
import {
  ChangePasswordDto,
  LocalLoginDto,
  OidcCallbackDto,
  RefreshDto,
} from './dto/auth-requests.dto';
import { AuthConfigDto, MeDto, TokenDto } from './dto/auth-responses.dto';
import { REFRESH_COOKIE_SHAPE } from './session-cookies';

/** The TCP peer and its `X-Forwarded-For`, for the per-address login budget. */
function clientPeer(request: FastifyRequest): ClientPeer {
  return {
    peer: request.socket.remoteAddress ?? '',
    forwardedFor: request.headers['x-forwarded-for'],
  };
}

@ApiTags('auth')
@Controller('api/v1/auth')
export class AuthController {
  /** A `refresh_token` body field or the httpOnly cookie; new tokens go to both. */
  private readonly refreshTransport: RefreshTokenTransport;

  constructor(
    private readonly auth: AuthService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {
    this.refreshTransport = new BodyOrCookieRefreshTransport(
      new RefreshCookie(REFRESH_COOKIE_SHAPE, !config.devMode),
    );
  }

  @Post('local/login')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: TokenDto })
  async login(
    @Body() body: LocalLoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenDto> {
    return this.answer(
      reply,
      await this.auth.loginLocal(body.email, body.password, clientPeer(request)),
    );
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
    const presented = this.refreshTransport.presented(request, body.refresh_token);
    return this.answer(reply, await this.auth.refresh(presented));
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
    await this.auth.logout(this.refreshTransport.presented(request, body.refresh_token));
    this.refreshTransport.clear(reply);
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
  async authConfig(): Promise<AuthConfigDto> {
    const provider = this.auth.identityProvider;
    return {
      local_enabled: this.config.localAuth.enabled,
      oidc: {
        enabled: provider !== undefined,
        issuer: provider?.settings.issuer ?? null,
        client_id: provider?.settings.clientId ?? null,
        authorization_endpoint: (await provider?.authorizationEndpoint()) ?? null,
        scopes: provider?.settings.scopes ?? DEFAULT_OIDC_SCOPES,
        code_challenge_method: 'S256',
      },
    };
  }

  @Post('callback')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: TokenDto })
  async callback(
    @Body() body: OidcCallbackDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenDto> {
    const session = await this.auth.loginWithProvider(
      {
        code: body.code,
        codeVerifier: body.code_verifier,
        redirectUri: body.redirect_uri,
        nonce: body.nonce,
      },
      clientPeer(request),
    );
    return this.answer(reply, session);
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
    this.refreshTransport.deliver(reply, session.refresh);
    return TokenDto.from(session);
  }
}
