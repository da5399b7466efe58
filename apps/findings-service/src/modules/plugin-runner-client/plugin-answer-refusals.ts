import { isStorableText } from '@platform/http';
import { Counter, type Registry } from 'prom-client';
import type { PluginInvocationResult } from './plugin-runner.client';

export const PLUGIN_ANSWER_REFUSALS_METRIC = 'findsvc_plugin_answers_refused_total';

/**
 * Why the service refused what a plugin answered: `invalid_answer` (not the operation's shape,
 * or text the HTTP input rules refuse: U+0000, unpaired surrogates, over a length cap) or
 * `answer_too_large` (over the runner's answer limit). Nothing stored changes on either.
 */
export const PLUGIN_ANSWER_REFUSAL_REASONS = ['invalid_answer', 'answer_too_large'] as const;
export type PluginAnswerRefusalReason = (typeof PLUGIN_ANSWER_REFUSAL_REASONS)[number];

/** The text the SDK build's answer guard throws for an answer of the wrong type. */
const GUARD_PREFIX = 'invalid_answer: ';

/** Counts refused plugin answers: `findsvc_plugin_answers_refused_total{plugin, reason}`. */
export interface PluginAnswerRefusals {
  count(pluginId: string, reason: PluginAnswerRefusalReason): void;
}

/**
 * The counter on the process's registry (API and worker), registered once per registry. The
 * `plugin` label is the installation id, so its values are bounded by the installed plugins.
 */
export function pluginAnswerRefusals(registry: Registry): PluginAnswerRefusals {
  let counter = registry.getSingleMetric(PLUGIN_ANSWER_REFUSALS_METRIC) as
    Counter<'plugin' | 'reason'> | undefined;
  if (!counter) {
    counter = new Counter({
      name: PLUGIN_ANSWER_REFUSALS_METRIC,
      help: 'Plugin answers the service refused (nothing stored changed), by plugin and reason',
      labelNames: ['plugin', 'reason'],
      registers: [registry],
    });
  }
  const registered = counter;
  return { count: (plugin, reason) => registered.inc({ plugin, reason }) };
}

/**
 * The refusal a failed invocation stands for, if any: the runner's `answer_too_large`, or the
 * SDK answer guard's error text `invalid_answer: ...` (a wrong type the component model would
 * otherwise have read as an empty answer).
 */
export function answerRefusalOf(
  result: PluginInvocationResult,
): { reason: PluginAnswerRefusalReason; problem: string } | undefined {
  if (result.ok) return undefined;
  if (result.error.code === 'answer_too_large') {
    return { reason: 'answer_too_large', problem: result.error.message };
  }
  const detail = result.error.detail;
  if (
    result.error.code === 'plugin_error' &&
    typeof detail === 'string' &&
    detail.startsWith(GUARD_PREFIX)
  ) {
    return { reason: 'invalid_answer', problem: detail.slice(GUARD_PREFIX.length, 500) };
  }
  return undefined;
}

/** Text a plugin wrote, made safe to show: unstorable characters replaced, cut to `max`. */
export function shownPluginText(text: string, max: number): string {
  const safe = isStorableText(text)
    ? text
    : text.replace(
        // eslint-disable-next-line no-control-regex -- U+0000 is exactly what is replaced
        /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
        '\uFFFD',
      );
  if (safe.length <= max) return safe;
  const end = /[\uD800-\uDBFF]/.test(safe.charAt(max - 1)) ? max - 1 : max;
  return safe.slice(0, end);
}
