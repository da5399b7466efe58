import { randomSuffix, testRunId } from './test-run';

/** Redis of the local stack (REDIS_URL from `tools/stack/stack.sh env`). */
export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';
}

/**
 * A BullMQ key prefix no other test file uses: pass it as `prefix` to every Queue, Worker
 * and QueueEvents of the test, so parallel test files never see each other's jobs.
 */
export function uniqueQueuePrefix(): string {
  return `test_${testRunId()}_${randomSuffix()}`;
}
