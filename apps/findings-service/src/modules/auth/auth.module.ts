import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RefreshTokenRotation, SessionAuthModule } from '@platform/auth';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { MembershipGrantsModule } from '../projects/membership-grants.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { RefreshTokensRepository } from '../users/refresh-tokens.repository';
import { UsersModule } from '../users/users.module';
import { AccessGuard } from './access/access.guard';
import { Authenticator } from './access/authenticator';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CompletedSsoFlows } from './completed-sso-flows';
import { DownloadLinksModule } from './download-links/download-links.module';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from './session-cookies';
import { SsoSignInService } from './sso-sign-in.service';

/**
 * The findings service's adapters over `@platform/auth`: its access-token claims, the
 * refresh cookie, single sign-on through the configured providers, and the global
 * AccessGuard (JWT or API key, then the route's declaration) every route passes through.
 */
/**
 * A refresh token retired by a rotation this many seconds ago gets a fresh successor instead
 * of revoking its family: a browser that left the page before the previous rotation's answer
 * (reload, two tabs) keeps its session; an older one is still a theft (docs/auth-tokens.md).
 */
const REFRESH_ROTATION_GRACE_SECONDS = 10;

@Module({
  imports: [
    SessionAuthModule.forRoot({
      inject: [FINDINGS_CONFIG],
      accessTokenPolicy: (config: FindingsConfig) => ({
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        secret: config.jwt.secret,
        ttlSeconds: config.jwt.accessTokenTtlSeconds,
      }),
    }),
    UsersModule,
    ServiceAccountsModule,
    RateLimitModule,
    MembershipGrantsModule,
    DownloadLinksModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SsoSignInService,
    CompletedSsoFlows,
    {
      provide: RefreshTokenRotation,
      inject: [RefreshTokensRepository, FINDINGS_CONFIG],
      useFactory: (store: RefreshTokensRepository, config: FindingsConfig) =>
        new RefreshTokenRotation(store, {
          ttlSeconds: config.refreshTokenTtlDays * 86_400,
          rotationGraceSeconds: REFRESH_ROTATION_GRACE_SECONDS,
        }),
    },
    Authenticator,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
})
export class AuthModule {}
