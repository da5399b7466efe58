/** The steps a connection test reports, in order. */
export const CONNECTION_STEPS = [
  'config',
  'egress',
  'dns',
  'connect',
  'tls',
  'http_status',
  'parse',
  'pin',
  'auth',
] as const;
export type ConnectionStep = (typeof CONNECTION_STEPS)[number];

export interface StepResult {
  step: ConnectionStep;
  ok: boolean;
  /** What was checked or what failed (never a secret). */
  detail: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** The first step that failed; null when every step passed. */
  failedStep: ConnectionStep | null;
  steps: StepResult[];
}

/** Collects steps; the first failure ends the test. */
export class StepLog {
  readonly steps: StepResult[] = [];

  pass(step: ConnectionStep, detail: string): void {
    this.steps.push({ step, ok: true, detail });
  }

  fail(step: ConnectionStep, detail: string): ConnectionTestResult {
    this.steps.push({ step, ok: false, detail });
    return this.result();
  }

  result(): ConnectionTestResult {
    const failed = this.steps.find((s) => !s.ok);
    return { ok: !failed, failedStep: failed?.step ?? null, steps: this.steps };
  }
}

type Answer = { ok: true; status: number } | { ok: false; reason: string; message: string };

/**
 * Records the network steps of one guarded call: a refusal names the step that failed
 * (`dns_failed` -> dns, `connect_failed`/`timeout` -> connect, `tls_failed` -> tls, a policy
 * refusal -> egress); an answer means DNS, connect and (https) TLS passed. Returns false
 * when the call failed (the failure is logged).
 */
export function logTransport(log: StepLog, answer: Answer, https: boolean, what: string): boolean {
  if (!answer.ok) {
    const step = STEP_OF_REASON[answer.reason] ?? 'egress';
    const passed = CONNECTION_STEPS.slice(
      CONNECTION_STEPS.indexOf('dns'),
      CONNECTION_STEPS.indexOf(step),
    );
    if (step !== 'egress') for (const s of passed) log.pass(s, `${what}: ok`);
    log.fail(step, `${what}: ${answer.reason}: ${answer.message}`);
    return false;
  }
  for (const s of ['dns', 'connect'] as const) log.pass(s, `${what}: ok`);
  if (https) log.pass('tls', `${what}: server certificate verified`);
  return true;
}

const STEP_OF_REASON: Readonly<Record<string, ConnectionStep>> = {
  dns_failed: 'dns',
  connect_failed: 'connect',
  timeout: 'connect',
  tls_failed: 'tls',
  body_too_large: 'parse',
};
