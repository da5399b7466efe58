/**
 * @platform/web-ui/e2e: the Playwright support both web UIs' browser tests share (Node side):
 * starting the platform's processes, the stack's database, per-worker platform variables, the
 * Chromium configuration, axe-core checks and screenshots.
 */
export {
  REPOSITORY_ROOT,
  freePort,
  startNode,
  waitForHttp,
  waitForLine,
  type Child,
} from './processes';
export { adminSql, publishPlatforms, stackEnv, stackVar } from './stack';
export { expectAccessible, saveScreenshot } from './page-checks';
export { basePlaywrightConfig, runOutputDir } from './playwright-base';
export { keepRequestsOnFailure } from './request-log';
