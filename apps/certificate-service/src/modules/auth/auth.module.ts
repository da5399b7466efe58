import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RefreshTokenRotation, SessionAuthModule } from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AuditModule } from '../audit/audit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { RefreshTokensRepository } from '../users/refresh-tokens.repository';
import { UsersModule } from '../users/users.module';
import { AccessGuard } from './access/access.guard';
import { Authenticator } from './access/authenticator';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { LocalAdminBootstrap } from './local-admin.bootstrap';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  REFRESH_TOKEN_PREFIX,
} from './session-cookies';

/**
 * The certificate service's adapters over `@platform/auth`: its access-token claims, the
 * body-or-cookie refresh token, the identity provider's code exchange, service-account
 * tokens recognised before JWTs, and the global AccessGuard (every route declares access).
 */
/**
 * A refresh token used by a rotation this many seconds ago gets a fresh successor instead of
 * revoking its family (a reload or a second tab racing the rotation); an older one is still a
 * theft (docs/auth-tokens.md).
 */
const REFRESH_ROTATION_GRACE_SECONDS = 10;

@Module({
  imports: [
    SessionAuthModule.forRoot({
      inject: [CERTSVC_CONFIG],
      accessTokenPolicy: (config: CertsvcConfig) => ({
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        secret: config.jwt.secret,
        ttlSeconds: config.jwt.accessTokenTtlSeconds,
      }),
    }),
    UsersModule,
    ServiceAccountsModule,
    AuditModule,
    RateLimitsModule,
  ],
  controllers: [AuthController],
  providers: [
    {
      provide: RefreshTokenRotation,
      inject: [RefreshTokensRepository, CERTSVC_CONFIG],
      useFactory: (store: RefreshTokensRepository, config: CertsvcConfig) =>
        new RefreshTokenRotation(store, {
          ttlSeconds: config.refreshTokenTtlDays * 86_400,
          prefix: REFRESH_TOKEN_PREFIX,
          rotationGraceSeconds: REFRESH_ROTATION_GRACE_SECONDS,
        }),
    },
    Authenticator,
    AuthService,
    LocalAdminBootstrap,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
})
export class AuthModule {}
