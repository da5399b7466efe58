import 'reflect-metadata';
import { ConfigError } from '@platform/config';
import { currentBuildInfo } from '@platform/versioning';
import { loadCertsvcConfig } from './app/config/certsvc-config';
import { createCertificateApp } from './api/create-app';
import { createCertsvcLogger } from './app/logging/certsvc-logger';
import { CertsvcMetrics } from './app/metrics/certsvc-metrics';

async function main(): Promise<void> {
  const config = loadCertsvcConfig();
  const logger = createCertsvcLogger(config);
  const build = currentBuildInfo();
  logger.info(
    { version: build.version, commit: build.commit, built_at: build.builtAt },
    'starting certificate-service',
  );
  if (config.jwt.generated) {
    logger.warn(
      'CERTSVC_JWT_SECRET is not set: using a random secret for this process (dev mode); sessions end at restart',
    );
  }
  const app = await createCertificateApp({ config, logger, metrics: new CertsvcMetrics() });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ host: config.host, port: config.port }, 'certificate-service listening');
}

main().catch((error: unknown) => {
  const text =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`certificate-service failed to start: ${text}\n`);
  process.exit(1);
});
