import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  CookieRefreshTransport,
  readCookie,
  RefreshCookie,
  type RefreshTokenTransport,
  serializeCookie,
} from '@platform/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, Public, RateLimit, UserOnly } from '../../app/access/access.decorators';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UserDto } from '../users/dto/user.dto';
import { AuthError } from './auth.errors';
import { AuthService, Session } from './auth.service';
import { AuthConfigDto } from './dto/auth-config.dto';
import { LoginDto } from './dto/login.dto';
import { MeDto } from './dto/me.dto';
import { TokenResponseDto } from './dto/token-response.dto';
import { REFRESH_COOKIE, REFRESH_COOKIE_SHAPE, SSO_FLOW_COOKIE_SHAPE } from './session-cookies';
import { SsoSignInService } from './sso-sign-in.service';

@ApiTags('auth')
@Controller(`${API_PREFIX}/auth`)
export class AuthController {
  /** The refresh token travels in the `findsvc_refresh` cookie only, never in a body. */
  private readonly refreshTransport: RefreshTokenTransport;

  constructor(
    private readonly auth: AuthService,
    private readonly sso: SsoSignInService,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
  ) {
    this.refreshTransport = new CookieRefreshTransport(
      new RefreshCookie(REFRESH_COOKIE_SHAPE, config.cookieSecure),
    );
  }

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

  @Get('sso/:provider/login')
  @HttpCode(302)
  @Public()
  @RateLimit('auth')
  @ApiParam({ name: 'provider', description: 'Provider id (or its legacy alias)' })
  @ApiResponse({
    status: 302,
    description:
      "To the provider's authorization endpoint (code flow with PKCE); the sign-in state is sealed in the findsvc_sso_flow cookie",
  })
  @ApiQuery({
    name: 'redirect_uri',
    required: false,
    type: String,
    description:
      "A native client's loopback listener (http://127.0.0.1:<port>/<path> or http://[::1]:<port>/<path>, RFC 8252) the provider returns to instead of the configured redirect URI; the client then calls the callback with the provider's query and the flow cookie",
  })
  @ApiErrorResponses(400, 404, 429)
  async ssoLogin(
    @Param('provider') provider: string,
    @Query('redirect_uri') redirectUri: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const loopback = typeof redirectUri === 'string' ? redirectUri : undefined;
    if (redirectUri !== undefined && loopback === undefined) {
      throw new AuthError('sso_redirect_uri_invalid');
    }
    const { authorizationUrl, sealed } = await this.sso.begin(provider, loopback);
    const ttl = this.sso.flowTtlSeconds;
    const lifetime = { maxAgeSeconds: ttl, expiresAt: new Date(Date.now() + ttl * 1000) };
    void reply.header(
      'Set-Cookie',
      serializeCookie(SSO_FLOW_COOKIE_SHAPE, sealed, lifetime, this.config.cookieSecure),
    );
    void reply.header('Location', authorizationUrl);
  }

  @Get('sso/:provider/callback')
  @HttpCode(302)
  @Public()
  @RateLimit('auth')
  @ApiParam({ name: 'provider', description: 'Provider id (or its legacy alias)' })
  @ApiQuery({ name: 'code', required: false, type: String, description: 'Authorization code' })
  @ApiQuery({
    name: 'state',
    required: false,
    type: String,
    description: 'Must match the started sign-in',
  })
  @ApiResponse({
    status: 302,
    description:
      'Signed in: the refresh token is set in the findsvc_refresh cookie and the browser goes to the UI (SSO_AFTER_LOGIN_URL), which obtains an access token with POST /api/v1/auth/token/refresh',
  })
  @ApiErrorResponses(400, 401, 404, 429)
  async ssoCallback(
    @Param('provider') provider: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const sealed = readCookie(SSO_FLOW_COOKIE_SHAPE, request.headers.cookie);
    // The flow cookie is spent whatever the outcome.
    void reply.header(
      'Set-Cookie',
      serializeCookie(SSO_FLOW_COOKIE_SHAPE, null, null, this.config.cookieSecure),
    );
    const session = await this.sso.complete(provider, sealed, new URLSearchParams(query));
    this.refreshTransport.deliver(reply, session.refresh);
    void reply.header('Location', this.config.sso.afterLoginUrl);
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
      return this.answer(await this.auth.refresh(this.refreshTransport.presented(request)), reply);
    } catch (err) {
      this.refreshTransport.clear(reply);
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
    await this.auth.logout(userId, this.refreshTransport.presented(request));
    this.refreshTransport.clear(reply);
  }

  @Get('me')
  @UserOnly()
  @ApiDataResponse(MeDto)
  @ApiErrorResponses(401, 403, 429)
  me(@CurrentAccess() access: AccessContext): Promise<MeDto> {
    return this.auth.me(access);
  }

  private answer(session: Session, reply: FastifyReply): TokenResponseDto {
    this.refreshTransport.deliver(reply, session.refresh);
    return {
      access_token: session.accessToken,
      token_type: 'Bearer',
      expires_in: session.expiresIn,
      user: UserDto.from(session.user),
    };
  }
}
