import type { PeriodicTask } from '@platform/database';
import type { Tracing } from '@platform/tracing';

/**
 * `task` with each run in a span of its own (`spanName`, attributes `task.name` and
 * `task.every_ms`): a trace per run of a periodic task, as the findings worker has for its
 * report cleanup. A failed run marks the span as an error (the schedule logs it).
 */
export function tracedTask(tracing: Tracing, spanName: string, task: PeriodicTask): PeriodicTask {
  return {
    name: task.name,
    everyMs: task.everyMs,
    run: () =>
      tracing.inSpan(spanName, { 'task.name': task.name, 'task.every_ms': task.everyMs }, () =>
        task.run(),
      ),
  };
}
