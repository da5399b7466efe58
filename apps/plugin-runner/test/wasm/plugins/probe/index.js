// The runner's test plugin: `finding.rule` selects a behaviour, `finding.description` is its
// argument. Built by the SDK build command (apps/plugin-runner/test/wasm/support).
import {
  getProjectSecret,
  getSecret,
  httpRequest,
  isCveKnown,
  log,
  sendEmail,
} from 'findsvc:plugin/host@0.1.0';

// Instance state: shows whether two calls shared an instance.
let callsOnThisInstance = 0;

function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

function hostCall(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

export const findingEnricher = {
  enrich(ctx, finding) {
    callsOnThisInstance += 1;
    const settings = JSON.parse(ctx.settingsJson);
    const arg = finding.description;
    switch (finding.rule) {
      case 'tags':
        return [
          { key: 'severity', value: finding.severity },
          { key: 'calls-on-instance', value: String(callsOnThisInstance) },
          { key: 'label', value: String(settings.label ?? '') },
          { key: 'event', value: ctx.eventId },
        ];
      case 'loop': {
        let n = 0;
        for (;;) n += 1;
      }
      case 'alloc': {
        const chunks = [];
        for (;;) chunks.push(new Array(1 << 20).fill(callsOnThisInstance));
      }
      case 'secret':
      case 'project-secret': {
        const read = finding.rule === 'secret' ? getSecret : getProjectSecret;
        const answer = hostCall(() => read(arg));
        if (!answer.ok) return [{ key: 'error', value: answer.error }];
        log('info', `read ${arg}: ${answer.value}`);
        log('warn', `again, quoted: "${answer.value}"`);
        // Shown reversed: the runner replaces the secret itself in every answer (see leak-in-tag).
        return [
          {
            key: 'value',
            value:
              answer.value === undefined ? '<none>' : `rev:${[...answer.value].reverse().join('')}`,
          },
        ];
      }
      case 'leak-in-tag': {
        const answer = hostCall(() => getSecret(arg));
        return [{ key: 'value', value: `token ${answer.value} copied` }];
      }
      case 'leak-in-error': {
        const answer = hostCall(() => getSecret(arg));
        throw `could not use ${answer.value}`;
      }
      case 'http': {
        const answer = hostCall(() =>
          httpRequest({ method: 'GET', url: settings.url + arg, headers: [], body: undefined }),
        );
        if (!answer.ok) return [{ key: 'error', value: answer.error }];
        return [
          { key: 'status', value: String(answer.value.status) },
          { key: 'body', value: answer.value.body },
        ];
      }
      case 'email': {
        const answer = hostCall(() => sendEmail({ subject: `about ${finding.id}`, body: arg }));
        return [{ key: 'email', value: answer.ok ? 'sent' : answer.error }];
      }
      case 'cve': {
        const answer = hostCall(() => isCveKnown(arg.split(',')));
        return [{ key: 'known', value: answer.ok ? answer.value.join(',') : answer.error }];
      }
      case 'log-flood': {
        for (let i = 0; i < Number(arg); i += 1) log('info', `line ${i}`);
        return [];
      }
      case 'log-then-secret': {
        // log() is a host call: N lines, then a secret (denied past the 1 000 calls).
        for (let i = 0; i < Number(arg); i += 1) log('info', `line ${i}`);
        const answer = hostCall(() => getSecret('api_token'));
        return [{ key: 'secret', value: answer.ok ? 'read' : answer.error }];
      }
      case 'log-long': {
        log('info', 'x'.repeat(Number(arg)));
        return [];
      }
      case 'refuse':
        throw `refused: ${arg}`;
      case 'throw-object':
        throw { not: 'a string' };
      default:
        return [{ key: 'unknown-rule', value: finding.rule }];
    }
  },
};
