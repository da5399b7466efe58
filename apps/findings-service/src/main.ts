import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { currentBuildInfo } from '@platform/versioning';
import { createFindingsApp } from './api/create-app';
import { loadFindingsConfig } from './app/config/findings-config';

async function main(): Promise<void> {
  const config = loadFindingsConfig(process.env, 'api');
  const app = await createFindingsApp(config);
  await app.listen({ port: config.port, host: config.host });
  const build = currentBuildInfo();
  new Logger('Main').log(
    `findings API listening on http://${config.host}:${config.port} component=backend version=${build.version} commit=${build.commit} built_at=${build.builtAt}`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `findings API failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
