// slack-channel: POST {webhook_url} {text, blocks: [{type: "section", text: {type: "mrkdwn"}}]}
// → 200 "ok"; 400 invalid_payload, 403 invalid_token / action_prohibited, 404 no_service,
// 410 channel_is_archived (REJECTED); 429 with Retry-After, 5xx (FAILED). The webhook address
// is the secret: no message names it.
const SLACK_SECTION_MAX = 3000;

channelKit.serve({
  async deliver({ event, secrets, idempotencyKey, deadlineAt, hosts }) {
    const webhook = secrets.webhook_url;
    if (!webhook) return channelKit.rejected('webhook_url is not set for this project');
    const text = channelKit.renderText(event, { format: 'slack', maxLength: SLACK_SECTION_MAX });
    const response = await channelKit.request({
      url: webhook,
      hosts,
      deadlineAt,
      headers: { 'idempotency-key': idempotencyKey },
      json: { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
    });
    // Slack answers plain-text codes ("ok", "no_service", ...), not JSON.
    const code = /^[a-z_]{1,64}$/.test(response.text.trim()) ? response.text.trim() : '';
    if (response.status >= 200 && response.status < 300) {
      return code === 'ok' && !response.truncated
        ? channelKit.delivered('sent', {})
        : channelKit.unexpectedAnswer(response);
    }
    return channelKit.outcomeOfStatus(response, code);
  },
});
