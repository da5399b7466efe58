import { Controller, Get } from '@nestjs/common';
import { currentBuildInfo } from '@platform/versioning';
import { COMPONENT } from '../app/runner-identity';

export interface VersionBody {
  component: string;
  version: string;
  commit: string;
  built_at: string;
}

/** The platform-wide `X.Y.BUILD+COMMIT` stamp of this build. */
@Controller()
export class VersionController {
  @Get('version')
  version(): VersionBody {
    const info = currentBuildInfo();
    return {
      component: COMPONENT,
      version: info.version,
      commit: info.commit,
      built_at: info.builtAt,
    };
  }
}
