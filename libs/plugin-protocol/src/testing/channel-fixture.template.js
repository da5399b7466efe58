// A native notification channel plugin for tests: a small Node program speaking the tier-2
// protocol (docs/plugins/native.md). `buildNativeChannelFixture` prepends the shebang, the
// variant and the proto files (PROTOS), so the artifact is one self-contained file whose
// only outside requirement is @grpc/grpc-js and @grpc/proto-loader on NODE_PATH.
//
// Deliver behaviour by the `mode` setting: ok (default) | reject | fail | crash | slow
// (waits `delay_ms`) | sicken (health answers NOT_SERVING from then on) | email (calls the
// runner's ChannelHost/SendEmail with `email_subject` and a body naming the event kind;
// `email_calls` = how many times, default 1; DELIVERED with the message ids, or REJECTED /
// FAILED with the refusal's findsvc-error-code as the plugin contract says). Every Deliver it
// receives is appended to the `record_file` setting (one idempotency key per line) before it
// answers, so a test sees what reached the plugin.
//
// Variants: normal | no-handshake | bad-handshake | outside-socket | unhealthy |
// ignore-shutdown (answers Shutdown but stays, ignores SIGTERM) | no-cookie-check.
/* global VARIANT, PROTOS */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const COOKIE_KEY = 'FINDSVC_PLUGIN_MAGIC_COOKIE';
const COOKIE_VALUE = PROTOS.cookie;

if (VARIANT !== 'no-cookie-check' && process.env[COOKIE_KEY] !== COOKIE_VALUE) {
  process.stderr.write('This is a plugin of the findings service; the plugin runner starts it.\n');
  process.exit(1);
}
if (process.env.FINDSVC_PLUGIN_PROTOCOL_VERSIONS !== '1') {
  process.stderr.write(
    `unsupported protocol versions ${process.env.FINDSVC_PLUGIN_PROTOCOL_VERSIONS}\n`,
  );
  process.exit(1);
}

const protoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'protos-'));
for (const [name, text] of Object.entries(PROTOS.files)) {
  fs.writeFileSync(path.join(protoDir, name), text);
}
const options = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
const channelPkg = grpc.loadPackageDefinition(
  protoLoader.loadSync(path.join(protoDir, 'channel.proto'), options),
);
const healthPkg = grpc.loadPackageDefinition(
  protoLoader.loadSync(path.join(protoDir, 'health.proto'), options),
);

const server = new grpc.Server();
let stopping = false;
let healthy = VARIANT !== 'unhealthy';

function exitSoon(code) {
  if (stopping) return;
  stopping = true;
  server.tryShutdown(() => process.exit(code));
  setTimeout(() => process.exit(code), 500).unref();
}

server.addService(healthPkg.grpc.health.v1.Health.service, {
  Check: (call, callback) => callback(null, { status: healthy ? 'SERVING' : 'NOT_SERVING' }),
  Watch: (call) => call.end(),
});

let hostClient;
function sendOneEmail(request) {
  const socketPath = process.env.FINDSVC_PLUGIN_HOST_SOCKET;
  if (!socketPath || !request.host_call_token) {
    return Promise.reject(
      Object.assign(new Error('no host'), { findsvcCode: 'not_offered', details: 'no host' }),
    );
  }
  hostClient ??= new channelPkg.findsvc.plugin.channel.v1.ChannelHost(
    `unix:${socketPath}`,
    grpc.credentials.createInsecure(),
  );
  const kind = JSON.parse(request.event_json || '{}').kind;
  return new Promise((resolve, reject) => {
    hostClient.SendEmail(
      {
        host_call_token: request.host_call_token,
        subject: request.settings.email_subject || `Findings: ${kind}`,
        body: `Event ${kind} for project ${request.context.project_id}\n`,
      },
      { deadline: Date.now() + 8000 },
      (error, response) => {
        if (!error) return resolve(response.message_id);
        const code = (error.metadata && error.metadata.get('findsvc-error-code')[0]) || 'none';
        reject(Object.assign(error, { findsvcCode: String(code) }));
      },
    );
  });
}

async function sendEmails(request, times) {
  const ids = [];
  for (let i = 0; i < times; i += 1) ids.push(await sendOneEmail(request));
  return ids;
}

server.addService(channelPkg.findsvc.plugin.channel.v1.Channel.service, {
  Deliver: (call, callback) => {
    const request = call.request;
    const settings = request.settings || {};
    if (settings.record_file) {
      fs.appendFileSync(settings.record_file, `${request.idempotency_key}\n`);
    }
    const answer = (outcome, message) =>
      callback(null, {
        outcome,
        message,
        result_json: JSON.stringify({
          pid: process.pid,
          heap_limit_mb: Math.round(v8.getHeapStatistics().heap_size_limit / 1048576),
          context: request.context,
          event: JSON.parse(request.event_json || 'null'),
          settings,
          secret_names: Object.keys(request.secrets || {}).sort(),
          secret_lengths: Object.fromEntries(
            Object.entries(request.secrets || {}).map(([k, v]) => [k, v.length]),
          ),
          env_keys: Object.keys(process.env).sort(),
          egress_env: {
            allow_http: process.env.FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP,
            allow_local_dial: process.env.FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL,
          },
          host_socket: process.env.FINDSVC_PLUGIN_HOST_SOCKET,
        }),
      });
    switch (settings.mode) {
      case 'email':
        return sendEmails(request, Number(settings.email_calls || 1)).then(
          (ids) => answer('DELIVERED', `mailed ${ids.join(',')}`),
          (error) =>
            answer(
              error.findsvcCode === 'unavailable' ? 'FAILED' : 'REJECTED',
              `mail refused: ${error.findsvcCode} ${error.details}`,
            ),
        );
      case 'reject':
        return answer('REJECTED', `chat not found (token ${request.secrets.bot_token || ''})`);
      case 'fail':
        return answer('FAILED', 'target unreachable');
      case 'crash':
        process.exit(3);
        return undefined;
      case 'sicken':
        healthy = false;
        return answer('DELIVERED', 'sent; health now NOT_SERVING');
      case 'slow':
        setTimeout(() => answer('DELIVERED', 'sent late'), Number(settings.delay_ms || 1000));
        return undefined;
      default:
        return answer('DELIVERED', 'sent');
    }
  },
  Shutdown: (call, callback) => {
    callback(null, {});
    if (VARIANT !== 'ignore-shutdown') setImmediate(() => exitSoon(0));
  },
});

if (VARIANT === 'ignore-shutdown') process.on('SIGTERM', () => undefined);
else process.on('SIGTERM', () => exitSoon(0));

// The runner keeps stdin open for the plugin's whole life: EOF means the runner is gone.
process.stdin.on('end', () => exitSoon(0));
process.stdin.resume();

const socketDir = process.env.FINDSVC_PLUGIN_SOCKET_DIR;
const elsewhere =
  VARIANT === 'outside-socket' ? fs.mkdtempSync(path.join('/tmp', 'elsewhere-')) : undefined;
const socket = path.join(elsewhere ?? socketDir, 'plugin.sock');

if (VARIANT === 'no-handshake') {
  setInterval(() => undefined, 1000);
} else {
  server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      process.stderr.write(`bind failed: ${error.message}\n`);
      process.exit(1);
    }
    // The runner refuses the path itself and kills the plugin at once (SIGKILL: no exit handler
    // runs, and it can come before the next line here), so the directory goes before the
    // handshake is written; the bound socket lives on without its name.
    if (elsewhere) fs.rmSync(elsewhere, { recursive: true, force: true });
    const line = VARIANT === 'bad-handshake' ? 'hello runner' : `1|1|unix|${socket}|grpc`;
    process.stdout.write(`${line}\n`);
    process.stdout.write('channel plugin ready\n');
  });
}
