import {
  admitAddresses,
  checkUrlForm,
  Refused,
  type CheckedUrl,
  type EgressLabels,
} from './egress-check';
import type { EgressContext } from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import type { EgressResolver } from './egress-resolver';
import { errorText } from './error-text';
import { parseIpAddress, type IpAddress } from './ip-address';

/** A URL that passed every check, with the addresses it may be dialled at. */
export interface CheckedTarget extends CheckedUrl {
  addresses: IpAddress[];
}

/**
 * Every check of one URL, up to the addresses that may be dialled: the URL's form and
 * permitted host, the name resolved once, every address allowed, the allowlist applied.
 */
export async function checkTarget(
  policy: EgressPolicy,
  resolver: EgressResolver,
  labels: EgressLabels,
  context: EgressContext,
  raw: string,
  signal: AbortSignal,
): Promise<CheckedTarget> {
  const form = checkUrlForm(policy, context, raw, labels);
  const addresses =
    form.host.kind === 'ip' ? [form.host.address] : await resolve(resolver, form.host.name, signal);
  return { ...form, addresses: admitAddresses(policy, form, addresses, labels) };
}

async function resolve(
  resolver: EgressResolver,
  name: string,
  signal: AbortSignal,
): Promise<IpAddress[]> {
  let answers: string[];
  try {
    answers = await abortable(resolver.resolve(name), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Refused('dns_failed', `${name} did not resolve (${errorText(error)})`);
  }
  const addresses = answers.map((answer) => parseIpAddress(answer));
  if (addresses.length === 0 || addresses.some((a) => a === undefined)) {
    throw new Refused('dns_failed', `${name} resolved to no usable address`);
  }
  return addresses as IpAddress[];
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
