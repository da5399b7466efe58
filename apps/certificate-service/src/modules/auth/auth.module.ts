import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AuditModule } from '../audit/audit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { UsersModule } from '../users/users.module';
import { AccessGuard } from './access/access.guard';
import { AccessTokenService } from './access-token.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BearerAuthenticator } from './bearer-authenticator';
import { LocalAdminBootstrap } from './local-admin.bootstrap';

/** Sign-in, sessions and the global AccessGuard (every route declares its access). */
@Module({
  imports: [JwtModule.register({}), UsersModule, ServiceAccountsModule, AuditModule],
  controllers: [AuthController],
  providers: [
    AccessTokenService,
    BearerAuthenticator,
    AuthService,
    LocalAdminBootstrap,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [BearerAuthenticator],
})
export class AuthModule {}
