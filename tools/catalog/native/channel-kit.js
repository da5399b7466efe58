// channel-kit: the shared part of the catalog's native notification channels (tier 2,
// docs/plugins/native.md, docs/plugins/catalog-plugins.md "Notification channels").
//
// tools/catalog/build-native.mjs writes one self-contained Node program per channel:
//   #!/usr/bin/env node, 'use strict', the constants KIT_PROTOS (proto texts + magic cookie)
//   and KIT_MANIFEST ({id, version, allowed_hosts, url_settings}), this file, the plugin's index.js.
// The plugin's index.js calls `channelKit.serve({ deliver })`; `deliver(call)` gets
// `{event, settings, secrets, idempotencyKey, hostCallToken, deadlineAt, hosts}` and answers
// `{outcome: 'DELIVERED'|'REJECTED'|'FAILED', message, result?}` (or throws a KitError).
//
// What the kit does for every channel:
// - handshake line, grpc.health.v1 SERVING, Deliver/Shutdown, exit on stdin EOF and SIGTERM;
// - the last 10 000 delivered idempotency keys (a repeat answers DELIVERED without sending;
//   a repeat while the first is in flight waits for it);
// - the text renderer of every kind of event (`renderParts`, `renderText`);
// - the SendEmail host call of the runner (`sendEmail`, the e-mail channel);
// - an egress-guarded HTTP client (`request`): https only and public addresses only, the name
//   resolved once and the connection pinned to that address, the target's host permitted by
//   the manifest (`allowed_hosts` + the hosts of the url-typed settings), redirects never
//   followed, bodies read up to 64 KiB and the connection dropped past it, the call's deadline.
//   FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP / FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL (set by the runner
//   from its PLUGIN_EGRESS_ALLOW_*) relax the first two; cloud metadata and other forbidden
//   ranges are never dialled. Address ranges mirror libs/egress/src/address-classifier.ts
//   (a test keeps them equal).
// No secret value is ever put into a message, result or log line by the kit.
'use strict';

const channelKit = (() => {
  const net = require('node:net');
  const dns = require('node:dns');
  const http = require('node:http');
  const https = require('node:https');

  const MAX_BODY_BYTES = 64 * 1024;
  const KEY_MEMORY = 10_000;
  /** Time kept back from the runner's deadline to answer before it. */
  const DEADLINE_MARGIN_MS = 300;
  const DEFAULT_CALL_MS = 10_000;
  const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
  const MAX_ITEMS = 20;

  /** A delivery outcome decided inside the kit or a plugin (egress refusal, bad answer). */
  class KitError extends Error {
    constructor(outcome, message, result) {
      super(message);
      this.outcome = outcome;
      this.result = result;
    }
  }
  const rejected = (message, result) => ({ outcome: 'REJECTED', message, result });
  const failed = (message, result) => ({ outcome: 'FAILED', message, result });
  const delivered = (message, result) => ({ outcome: 'DELIVERED', message, result });

  // ---- addresses (mirror of @platform/egress classifyAddress) ---------------------------

  const V4_RANGES = [
    ['0.0.0.0/32', 'unspecified', 'forbidden'],
    ['0.0.0.0/8', 'this_network', 'forbidden'],
    ['10.0.0.0/8', 'private', 'local'],
    ['100.100.100.200/32', 'metadata', 'forbidden'],
    ['100.64.0.0/10', 'cgnat', 'local'],
    ['127.0.0.0/8', 'loopback', 'local'],
    ['169.254.169.254/32', 'metadata', 'forbidden'],
    ['169.254.170.2/32', 'metadata', 'forbidden'],
    ['169.254.0.0/16', 'link_local', 'local'],
    ['172.16.0.0/12', 'private', 'local'],
    ['192.0.0.192/32', 'metadata', 'forbidden'],
    ['192.0.0.0/24', 'ietf_protocol', 'forbidden'],
    ['192.0.2.0/24', 'documentation', 'forbidden'],
    ['192.88.99.0/24', '6to4_relay', 'forbidden'],
    ['192.168.0.0/16', 'private', 'local'],
    ['198.18.0.0/15', 'benchmarking', 'local'],
    ['198.51.100.0/24', 'documentation', 'forbidden'],
    ['203.0.113.0/24', 'documentation', 'forbidden'],
    ['224.0.0.0/4', 'multicast', 'forbidden'],
    ['255.255.255.255/32', 'broadcast', 'forbidden'],
    ['240.0.0.0/4', 'reserved', 'forbidden'],
  ];
  // [cidr, category, verdict, byte offset of an embedded IPv4 address]
  const V6_RANGES = [
    ['::/128', 'unspecified', 'forbidden'],
    ['::1/128', 'loopback', 'local'],
    ['::ffff:0:0/96', 'ipv4_mapped', 'embedded', 12],
    ['::/96', 'ipv4_compatible', 'forbidden'],
    ['::ffff:0:0:0/96', 'ipv4_translated', 'forbidden'],
    ['64:ff9b::/96', 'nat64', 'embedded', 12],
    ['64:ff9b:1::/48', 'nat64_local', 'local'],
    ['100::/64', 'discard', 'forbidden'],
    ['2001::/32', 'teredo', 'forbidden'],
    ['2001::/23', 'ietf_protocol', 'forbidden'],
    ['2001:db8::/32', 'documentation', 'forbidden'],
    ['2002::/16', '6to4', 'embedded', 2],
    ['3fff::/20', 'documentation', 'forbidden'],
    ['fd00:ec2::254/128', 'metadata', 'forbidden'],
    ['fc00::/7', 'unique_local', 'local'],
    ['fe80::/10', 'link_local', 'local'],
    ['fec0::/10', 'site_local', 'local'],
    ['ff00::/8', 'multicast', 'forbidden'],
  ];

  function v4Bytes(text) {
    return text.split('.').map(Number);
  }

  /** 16 bytes of an IPv6 address (any spelling net.isIPv6 accepts, with an optional zone). */
  function v6Bytes(text) {
    let t = text.split('%')[0].toLowerCase();
    const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
    if (v4Tail) {
      const b = v4Bytes(v4Tail[1]);
      t = `${t.slice(0, -v4Tail[1].length)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
    }
    const [head, tail] = t.includes('::') ? t.split('::') : [t, undefined];
    const h = head ? head.split(':') : [];
    const tl = tail ? tail.split(':') : [];
    const groups =
      tail === undefined ? h : [...h, ...Array(8 - h.length - tl.length).fill('0'), ...tl];
    const bytes = [];
    for (const g of groups) {
      const n = parseInt(g || '0', 16);
      bytes.push(n >> 8, n & 0xff);
    }
    return bytes;
  }

  function bytesOf(address) {
    return net.isIPv4(address) ? v4Bytes(address) : v6Bytes(address);
  }

  function inRange(bytes, cidr) {
    const [base, prefixText] = cidr.split('/');
    const baseBytes = bytesOf(base);
    if (baseBytes.length !== bytes.length) return false;
    let prefix = Number(prefixText);
    for (let i = 0; prefix > 0; i++, prefix -= 8) {
      const mask = prefix >= 8 ? 0xff : (0xff << (8 - prefix)) & 0xff;
      if ((bytes[i] & mask) !== (baseBytes[i] & mask)) return false;
    }
    return true;
  }

  /** `{verdict: public|local|forbidden, category}` of an IP address literal. */
  function classifyAddress(address) {
    const bytes = bytesOf(address);
    const ranges = bytes.length === 4 ? V4_RANGES : V6_RANGES;
    for (const [cidr, category, verdict, at] of ranges) {
      if (!inRange(bytes, cidr)) continue;
      if (verdict !== 'embedded') return { verdict, category };
      const inner = classifyAddress(bytes.slice(at, at + 4).join('.'));
      return {
        verdict: inner.verdict,
        category: inner.verdict === 'public' ? category : `${category}:${inner.category}`,
      };
    }
    if (bytes.length === 16 && !inRange(bytes, '2000::/3')) {
      return { verdict: 'forbidden', category: 'reserved' };
    }
    return { verdict: 'public', category: 'public' };
  }

  // ---- egress policy and permitted hosts -------------------------------------------------

  function envFlag(name) {
    return /^(1|true|yes|on)$/i.test(process.env[name] || '');
  }

  function egressPolicy() {
    return {
      allowHttp: envFlag('FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP'),
      allowLocalDial: envFlag('FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL'),
    };
  }

  /** `host` of a URL without brackets, lower case; `host:port` spelled as the URL has it. */
  function hostName(url) {
    return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  }

  /**
   * The hosts a delivery may reach: the manifest's allowed_hosts and the hosts of the url
   * settings (installation or project) the call carries.
   */
  function permittedHosts(manifest, settings, secrets) {
    const hosts = new Set((manifest.allowed_hosts || []).map((h) => h.toLowerCase()));
    for (const name of manifest.url_settings || []) {
      const value = (settings && settings[name]) || (secrets && secrets[name]);
      if (!value) continue;
      try {
        hosts.add(hostName(new URL(value)));
      } catch {
        // an unparsable URL permits nothing; the plugin rejects it when it uses it
      }
    }
    return hosts;
  }

  /** Parses a target URL and applies the scheme and host rules; throws KitError(REJECTED). */
  function checkTarget(text, hosts, policy) {
    let url;
    try {
      url = new URL(text);
    } catch {
      throw new KitError('REJECTED', 'the target address is not a valid URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
      throw new KitError('REJECTED', `only https targets are permitted (got ${url.protocol})`);
    }
    if (url.username || url.password) {
      throw new KitError('REJECTED', 'the target address must not carry credentials');
    }
    const host = hostName(url);
    if (!hosts.has(host)) {
      throw new KitError('REJECTED', `host ${host} is not permitted to this channel`);
    }
    return url;
  }

  /** Resolves once; every address must be permitted; the first one is dialled (pinned). */
  async function resolvePinned(host, policy) {
    let addresses;
    if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
    else {
      try {
        addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
      } catch (error) {
        throw new KitError(
          'FAILED',
          `host ${host} could not be resolved (${error.code || 'error'})`,
        );
      }
    }
    if (addresses.length === 0) throw new KitError('FAILED', `host ${host} has no address`);
    for (const { address } of addresses) {
      const klass = classifyAddress(address);
      const allowed =
        klass.verdict === 'public' || (klass.verdict === 'local' && policy.allowLocalDial);
      if (!allowed) {
        throw new KitError(
          'REJECTED',
          `host ${host} resolves to a ${klass.category} address, which this channel may not reach`,
        );
      }
    }
    return addresses[0];
  }

  // ---- HTTP ------------------------------------------------------------------------------

  /**
   * One request under the egress rules. Answers `{status, headers, text, truncated}` (text:
   * at most 64 KiB, the connection is dropped past it); throws KitError: REJECTED for a
   * refused target, FAILED for network errors and the deadline.
   */
  async function request(options) {
    const { method = 'POST', headers = {}, json, deadlineAt, hosts } = options;
    const policy = egressPolicy();
    const url = checkTarget(options.url, hosts, policy);
    const host = hostName(url);
    const pinned = await resolvePinned(host, policy);
    const body = json === undefined ? options.body : Buffer.from(JSON.stringify(json));
    const remaining = Math.max(1, deadlineAt - Date.now());
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (fn, value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn(value);
      };
      const req = client.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method,
          agent: false,
          servername: net.isIP(host) ? undefined : host,
          lookup: (_name, opts, callback) =>
            opts && opts.all
              ? callback(null, [pinned])
              : callback(null, pinned.address, pinned.family),
          headers: {
            'user-agent': 'findsvc-channel',
            accept: 'application/json, text/plain;q=0.9',
            ...(json !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
            ...(body ? { 'content-length': String(body.length) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          let size = 0;
          let truncated = false;
          const done = () =>
            finish(resolve, {
              status: res.statusCode || 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
              truncated,
            });
          res.on('data', (chunk) => {
            if (truncated) return;
            const room = MAX_BODY_BYTES - size;
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room));
              size = MAX_BODY_BYTES;
              truncated = true;
              res.destroy();
              req.destroy();
              done();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', done);
          res.on('error', () =>
            truncated
              ? done()
              : finish(reject, new KitError('FAILED', `the answer of ${host} was cut off`)),
          );
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish(reject, new KitError('FAILED', `${host} did not answer within the deadline`));
      }, remaining);
      req.on('error', (error) =>
        finish(
          reject,
          new KitError('FAILED', `${host} could not be reached (${error.code || 'network error'})`),
        ),
      );
      req.end(body);
    });
  }

  /** Seconds from a Retry-After header (delta seconds or an HTTP date), else undefined. */
  function retryAfterSeconds(value, now = Date.now()) {
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text !== 'string' || text.trim() === '') return undefined;
    if (/^\s*\d+\s*$/.test(text)) return Number(text.trim());
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    return Math.max(0, Math.ceil((at - now) / 1000));
  }

  /**
   * The common outcome of an HTTP status: 2xx ok; 429, 408, 425 and 5xx FAILED (with
   * retry_after_seconds); a redirect FAILED (302/303/307) or REJECTED (301/308), never
   * followed; other 4xx REJECTED. `detail` is a short safe text from the answer.
   */
  function outcomeOfStatus(response, detail, retryAfter) {
    const { status } = response;
    if (status >= 200 && status < 300) return undefined;
    const wait =
      retryAfter !== undefined ? retryAfter : retryAfterSeconds(response.headers['retry-after']);
    const result = wait !== undefined ? { retry_after_seconds: wait, status } : { status };
    const suffix = detail ? `: ${detail}` : '';
    const later = wait !== undefined ? `; retry after ${wait} s` : '';
    if (status === 429) {
      return failed(`rate limited by the target (HTTP 429)${suffix}${later}`, result);
    }
    if (status >= 500 || status === 408 || status === 425) {
      return failed(`the target answered HTTP ${status}${suffix}${later}`, result);
    }
    if (status >= 300 && status < 400) {
      const message = `the target answered a redirect (HTTP ${status}), which is not followed`;
      return status === 301 || status === 308 ? rejected(message, result) : failed(message, result);
    }
    return rejected(`the target refused the message (HTTP ${status})${suffix}`, result);
  }

  /** The answer as JSON, or undefined (cut or not JSON). */
  function jsonOf(response) {
    if (response.truncated) return undefined;
    try {
      const value = JSON.parse(response.text);
      return value !== null && typeof value === 'object' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  const unexpectedAnswer = (response) =>
    failed(
      response.truncated
        ? 'unexpected answer from the target (larger than 64 KiB, dropped)'
        : 'unexpected answer from the target',
      { status: response.status },
    );

  /** A short printable text from an API's own error field (never the whole body). */
  function safeDetail(value) {
    if (typeof value !== 'string' && typeof value !== 'number') return '';
    return String(value)
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .slice(0, 200);
  }

  /**
   * The outcome of an answer: a 2xx that `accept(response, json)` takes (it returns the result
   * object) is DELIVERED, any other 2xx FAILED "unexpected answer" (HTML, cut, not the API's);
   * other statuses by `outcomeOfStatus`, with the API's own error text (`detail(json)`) and
   * wait (`retryAfter(json)`) when the answer is JSON.
   */
  function answerOf(response, { accept, detail, retryAfter }) {
    const body = jsonOf(response);
    if (response.status >= 200 && response.status < 300) {
      const result = accept(response, body);
      return result ? delivered('sent', result) : unexpectedAnswer(response);
    }
    return outcomeOfStatus(
      response,
      body && detail ? safeDetail(detail(body)) : '',
      body && retryAfter ? retryAfter(body) : undefined,
    );
  }

  // ---- rendering -------------------------------------------------------------------------

  const HEADERS = {
    new_findings: 'New findings',
    closed_findings: 'Findings closed',
    fixed_summary: 'Findings fixed',
    sla_approaching: 'SLA deadline approaching',
    sla_breached: 'SLA deadline breached',
  };

  /** Control characters (line breaks included) become one space: one item, one line. */
  function oneLine(text) {
    return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
  }

  /** The event's parts every channel renders in its own markup. */
  function renderParts(event) {
    const e = event && typeof event === 'object' ? event : {};
    const project =
      (e.project && typeof e.project.name === 'string' && oneLine(e.project.name).slice(0, 200)) ||
      'a project';
    const items = (Array.isArray(e.items) ? e.items : []).slice(0, MAX_ITEMS).map((item) => ({
      severity: SEVERITIES.includes(item && item.severity) ? item.severity : 'INFO',
      title:
        typeof (item && item.title) === 'string' ? oneLine(item.title).slice(0, 300) : '(untitled)',
      where: [item && item.product, item && item.location]
        .filter((v) => typeof v === 'string' && v !== '')
        .map(oneLine)
        .join(' '),
      url: typeof (item && item.url) === 'string' ? item.url : undefined,
      due: typeof (item && item.due_at) === 'string' ? item.due_at : undefined,
    }));
    const total = Number.isInteger(e.total) ? e.total : items.length;
    const counts = SEVERITIES.filter((s) => e.counts && Number(e.counts[s]) > 0).map(
      (s) => `${s} ${e.counts[s]}`,
    );
    const given = Array.isArray(e.items) ? e.items.length : 0;
    const more = Math.max(
      Number.isInteger(e.more) ? e.more + Math.max(0, given - items.length) : total - items.length,
      0,
    );
    const kindTitle = HEADERS[e.kind] || 'Notification';
    return {
      header: `${kindTitle} in ${project}: ${total} finding${total === 1 ? '' : 's'}`,
      counts: counts.join(' · '),
      items,
      more,
      link: typeof e.list_url === 'string' ? e.list_url : e.project && e.project.url,
    };
  }

  const MARKUP = {
    plain: { esc: (t) => t, bold: (t) => t, link: (t) => t },
    // Plain text that shows the addresses (e-mail).
    mail: { esc: (t) => t, bold: (t) => t, link: (t, url) => `${t} <${url}>` },
    html: {
      esc: (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      bold: (t) => `<b>${t}</b>`,
      link: (t, url) => `<a href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${t}</a>`,
    },
    // Slack mrkdwn: & < > escaped; links <url|text>.
    slack: {
      esc: (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      bold: (t) => `*${t}*`,
      link: (t, url) => `<${url.replace(/[<>|]/g, encodeURIComponent)}|${t}>`,
    },
    markdown: {
      esc: (t) => t.replace(/([\\`*_{}[\]()#+!|<>~])/g, '\\$1'),
      bold: (t) => `**${t}**`,
      link: (t, url) => `[${t}](${url.replace(/[()\s]/g, encodeURIComponent)})`,
    },
  };

  function itemLine(item, m) {
    const title = item.url ? m.link(m.esc(item.title), item.url) : m.esc(item.title);
    const where = item.where ? ` — ${m.esc(item.where)}` : '';
    const due = item.due ? ` (due ${m.esc(item.due)})` : '';
    return `[${item.severity}] ${title}${where}${due}`;
  }

  /**
   * The message text: header, counts, ≤ 20 item lines, "and N more", the link; cut to
   * `maxLength` characters by dropping item lines from the end (counted into "more").
   */
  function renderText(event, { format = 'plain', maxLength = 4000 } = {}) {
    const m = MARKUP[format] || MARKUP.plain;
    const parts = renderParts(event);
    const compose = (shown) => {
      const lines = [m.bold(m.esc(parts.header))];
      if (parts.counts) lines.push(m.esc(parts.counts));
      lines.push(...parts.items.slice(0, shown).map((item) => itemLine(item, m)));
      const more = parts.more + (parts.items.length - shown);
      if (more > 0) lines.push(m.esc(`and ${more} more`));
      if (parts.link) lines.push(m.link(m.esc('Open in the findings service'), parts.link));
      return lines.join('\n');
    };
    for (let shown = parts.items.length; shown >= 0; shown--) {
      const text = compose(shown);
      if (text.length <= maxLength) return text;
    }
    return compose(0).slice(0, maxLength);
  }

  // ---- host calls (ChannelHost on FINDSVC_PLUGIN_HOST_SOCKET) ---------------------------

  /** Set by serve(): the loaded channel package and the lazily made ChannelHost client. */
  const host = { pkg: undefined, client: undefined };
  const HOST_REFUSALS = {
    not_configured: 'REJECTED',
    denied: 'REJECTED',
    invalid: 'REJECTED',
    unavailable: 'FAILED',
  };

  function hostClient() {
    const socket = process.env.FINDSVC_PLUGIN_HOST_SOCKET;
    if (!host.pkg || !socket) return undefined;
    if (!host.client) {
      const grpc = require('@grpc/grpc-js');
      const ChannelHost = host.pkg.findsvc.plugin.channel.v1.ChannelHost;
      host.client = new ChannelHost(`unix:${socket}`, grpc.credentials.createInsecure());
    }
    return host.client;
  }

  /**
   * The SendEmail host call of this delivery: the findings service sends `{subject, body}` to
   * the project's recipients through the mail server it chose. Answers the message id; throws
   * KitError — FAILED for `unavailable` and transport errors, REJECTED for `not_configured`,
   * `denied` and `invalid` (the runner's `findsvc-error-code` trailer).
   */
  function sendEmail({ token, subject, body, deadlineAt }) {
    const client = hostClient();
    if (!client || !token) {
      return Promise.reject(
        new KitError('REJECTED', 'the plugin runner offers no host calls (SendEmail); update it'),
      );
    }
    return new Promise((resolve, reject) => {
      client.SendEmail(
        { host_call_token: token, subject, body },
        { deadline: Math.max(Date.now() + 1, deadlineAt) },
        (error, response) => {
          if (!error) return resolve((response && response.message_id) || '');
          const code = error.metadata && error.metadata.get('findsvc-error-code')[0];
          const outcome = HOST_REFUSALS[code] || 'FAILED';
          const detail = safeDetail(error.details || '');
          reject(
            new KitError(
              outcome,
              `the findings service did not send the e-mail (${code || 'error'})${detail ? `: ${detail}` : ''}`,
            ),
          );
          return undefined;
        },
      );
    });
  }

  // ---- the gRPC server -------------------------------------------------------------------

  /** Delivered keys, oldest first; at most KEY_MEMORY. */
  class KeyMemory {
    constructor(limit = KEY_MEMORY) {
      this.limit = limit;
      this.keys = new Map();
    }
    has(key) {
      return this.keys.has(key);
    }
    get(key) {
      return this.keys.get(key);
    }
    add(key, result) {
      this.keys.delete(key);
      this.keys.set(key, result);
      while (this.keys.size > this.limit) this.keys.delete(this.keys.keys().next().value);
    }
  }

  function deadlineOf(call) {
    const d = typeof call.getDeadline === 'function' ? call.getDeadline() : Infinity;
    const at = d instanceof Date ? d.getTime() : Number(d);
    return Number.isFinite(at) && at > 0 ? at - DEADLINE_MARGIN_MS : Date.now() + DEFAULT_CALL_MS;
  }

  /** Runs one Deliver through the plugin; never throws. */
  async function runDelivery(plugin, request, deadlineAt, manifest) {
    let event;
    try {
      event = JSON.parse(request.event_json || '');
    } catch {
      return rejected('the event is not valid JSON');
    }
    const settings = request.settings || {};
    const secrets = request.secrets || {};
    try {
      const answer = await plugin.deliver({
        event,
        settings,
        secrets,
        idempotencyKey: request.idempotency_key,
        hostCallToken: request.host_call_token || '',
        deadlineAt,
        hosts: permittedHosts(manifest, settings, secrets),
      });
      return answer && answer.outcome ? answer : failed('the channel gave no answer');
    } catch (error) {
      if (error instanceof KitError)
        return { outcome: error.outcome, message: error.message, result: error.result };
      return failed('the channel failed unexpectedly');
    }
  }

  function serve(plugin) {
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const grpc = require('@grpc/grpc-js');
    const protoLoader = require('@grpc/proto-loader');
    if (process.env.FINDSVC_PLUGIN_MAGIC_COOKIE !== KIT_PROTOS.cookie) {
      process.stderr.write(
        `${KIT_MANIFEST.id} is a notification channel plugin of the findings service; the plugin runner starts it.\n`,
      );
      process.exit(1);
    }
    if (!(process.env.FINDSVC_PLUGIN_PROTOCOL_VERSIONS || '').split(',').includes('1')) {
      process.stderr.write('the runner speaks no channel protocol version this plugin knows (1)\n');
      process.exit(1);
    }
    const protoDir = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'protos-'));
    for (const [name, text] of Object.entries(KIT_PROTOS.files)) {
      fs.writeFileSync(path.join(protoDir, name), text);
    }
    const options = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
    const load = (file) =>
      grpc.loadPackageDefinition(protoLoader.loadSync(path.join(protoDir, file), options));
    const channelPkg = load('channel.proto');
    host.pkg = channelPkg;
    const healthPkg = load('health.proto');
    const memory = new KeyMemory();
    const inFlight = new Map();
    const server = new grpc.Server();
    let stopping = false;

    const exitSoon = (code) => {
      if (stopping) return;
      stopping = true;
      const wait = () =>
        inFlight.size === 0 ? server.tryShutdown(() => process.exit(code)) : setTimeout(wait, 50);
      wait();
      setTimeout(() => process.exit(code), DEFAULT_CALL_MS).unref();
    };

    server.addService(healthPkg.grpc.health.v1.Health.service, {
      Check: (_call, callback) => callback(null, { status: stopping ? 'NOT_SERVING' : 'SERVING' }),
      Watch: (call) => call.end(),
    });
    server.addService(channelPkg.findsvc.plugin.channel.v1.Channel.service, {
      Deliver: (call, callback) => {
        const request = call.request;
        const key = request.idempotency_key || '';
        const reply = (answer) =>
          callback(null, {
            outcome: answer.outcome,
            message: String(answer.message || '').slice(0, 1000),
            result_json: answer.result === undefined ? '' : JSON.stringify(answer.result),
          });
        if (key && memory.has(key)) {
          return reply(delivered('already delivered', { ...memory.get(key), duplicate: true }));
        }
        const running = key ? inFlight.get(key) : undefined;
        const work =
          running ||
          runDelivery(plugin, request, deadlineOf(call), KIT_MANIFEST).then((answer) => {
            if (answer.outcome === 'DELIVERED' && key) memory.add(key, answer.result || {});
            return answer;
          });
        if (key && !running) {
          inFlight.set(key, work);
          work.finally(() => inFlight.delete(key));
        }
        work.then(reply);
        return undefined;
      },
      Shutdown: (_call, callback) => {
        callback(null, {});
        setImmediate(() => exitSoon(0));
      },
    });
    process.on('SIGTERM', () => exitSoon(0));
    process.stdin.on('end', () => exitSoon(0));
    process.stdin.resume();
    const socket = path.join(process.env.FINDSVC_PLUGIN_SOCKET_DIR || '', 'plugin.sock');
    server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (error) => {
      if (error) {
        process.stderr.write(`could not listen on the plugin socket: ${error.message}\n`);
        process.exit(1);
      }
      process.stdout.write(`1|1|unix|${socket}|grpc\n`);
      process.stdout.write(`${KIT_MANIFEST.id} ${KIT_MANIFEST.version} ready\n`);
    });
  }

  return {
    KitError,
    answerOf,
    KeyMemory,
    classifyAddress,
    checkTarget,
    delivered,
    failed,
    jsonOf,
    outcomeOfStatus,
    permittedHosts,
    rejected,
    renderParts,
    renderText,
    request,
    retryAfterSeconds,
    runDelivery,
    safeDetail,
    sendEmail,
    serve,
    unexpectedAnswer,
  };
})();

// Required from a test (not the built program): the kit's parts, without starting anything.
if (typeof module !== 'undefined' && require.main !== module) module.exports = channelKit;
