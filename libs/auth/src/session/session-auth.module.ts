import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ACCESS_TOKEN_POLICY, type AccessTokenPolicy } from './access-token-policy';
import { AccessTokenGuard } from './access-token.guard';
import { AccessTokenStrategy } from './access-token.strategy';
import { AccessTokens } from './access-tokens';

export interface SessionAuthOptions {
  imports?: ModuleMetadata['imports'];
  inject: unknown[];
  /** The service's access-token policy, usually built from its typed configuration. */
  accessTokenPolicy: (...deps: never[]) => AccessTokenPolicy;
}

/** Access tokens for a service: issuing (`AccessTokens`) and checking (`AccessTokenGuard`). */
@Module({})
export class SessionAuthModule {
  static forRoot(options: SessionAuthOptions): DynamicModule {
    return {
      module: SessionAuthModule,
      imports: [PassportModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: ACCESS_TOKEN_POLICY,
          inject: options.inject as never[],
          useFactory: options.accessTokenPolicy,
        },
        {
          provide: AccessTokens,
          inject: [ACCESS_TOKEN_POLICY],
          useFactory: (policy: AccessTokenPolicy) => new AccessTokens(policy),
        },
        AccessTokenStrategy,
        AccessTokenGuard,
      ],
      exports: [AccessTokens, AccessTokenGuard],
    };
  }
}
