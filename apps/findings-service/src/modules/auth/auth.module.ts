import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { MembershipGrantsModule } from '../projects/membership-grants.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { UsersModule } from '../users/users.module';
import { AccessGuard } from './access/access.guard';
import { Authenticator } from './access/authenticator';
import { AccessTokenService } from './access-token.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtStrategy } from './jwt.strategy';

/** Sign-in, tokens, and the global AccessGuard that every route passes through. */
@Module({
  imports: [
    PassportModule,
    JwtModule.register({}),
    UsersModule,
    ServiceAccountsModule,
    RateLimitModule,
    MembershipGrantsModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    AccessTokenService,
    JwtStrategy,
    JwtAuthGuard,
    Authenticator,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
})
export class AuthModule {}
