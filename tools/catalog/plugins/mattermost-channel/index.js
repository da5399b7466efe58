// mattermost-channel 1.0.1: POST {webhook_url} {text, channel?} → 200 "ok"; errors are JSON
// {id, message, status_code} (4xx REJECTED; 429 with Retry-After, 5xx FAILED). The installation
// setting chatserver_base_url names the server: without it every delivery is REJECTED, and a
// webhook_url that is not under it (same scheme, host, port and path prefix) is REJECTED, so a
// project's webhook can only reach the operator's chat server. The webhook address is the
// secret: no message names it.
const MATTERMOST_TEXT_MAX = 16_000;

function underServer(webhook, server) {
  let hook;
  let base;
  try {
    hook = new URL(webhook);
    base = new URL(server);
  } catch {
    return false;
  }
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return hook.origin === base.origin && hook.pathname.startsWith(prefix);
}

channelKit.serve({
  async deliver({ event, settings, secrets, idempotencyKey, deadlineAt }) {
    const server = settings.chatserver_base_url;
    if (!server) return channelKit.rejected('chat server address is not set');
    const webhook = secrets.webhook_url;
    if (!webhook) return channelKit.rejected('webhook_url is not set for this project');
    if (!underServer(webhook, server)) {
      return channelKit.rejected('webhook_url is not an address on the configured chat server');
    }
    const payload = {
      text: channelKit.renderText(event, { format: 'markdown', maxLength: MATTERMOST_TEXT_MAX }),
    };
    if (settings.channel) payload.channel = settings.channel;
    const response = await channelKit.request({
      url: webhook,
      // Only the chat server's host, whatever the webhook address says.
      hosts: new Set([new URL(server).hostname.replace(/^\[|\]$/g, '').toLowerCase()]),
      deadlineAt,
      headers: { 'idempotency-key': idempotencyKey },
      json: payload,
    });
    return channelKit.answerOf(response, {
      accept: (answer) => (!answer.truncated && answer.text.trim() === 'ok' ? {} : undefined),
      detail: (body) => body.message,
    });
  },
});
