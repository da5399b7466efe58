// teams-channel: POST {webhook_url} {type: "message", attachments: [{contentType:
// "application/vnd.microsoft.card.adaptive", content: AdaptiveCard with TextBlocks}]}
// → 200 "1" (connector webhooks), 202 or 200 with an empty or JSON body (workflows);
// 400/401/403/404/410 REJECTED; 429 with Retry-After, 5xx FAILED. The webhook address is the
// secret: no message names it.
const TEAMS_TEXT_MAX = 20_000;

function card(event) {
  const parts = channelKit.renderParts(event);
  const esc = (t) => t.replace(/([\\`*_[\]()#>])/g, '\\$1');
  const body = [
    { type: 'TextBlock', text: esc(parts.header), weight: 'Bolder', size: 'Medium', wrap: true },
  ];
  if (parts.counts)
    body.push({ type: 'TextBlock', text: esc(parts.counts), wrap: true, isSubtle: true });
  let used = 0;
  let shown = 0;
  for (const item of parts.items) {
    const title = item.url ? `[${esc(item.title)}](${item.url})` : esc(item.title);
    const line = `**${item.severity}** ${title}${item.where ? ` — ${esc(item.where)}` : ''}${item.due ? ` (due ${esc(item.due)})` : ''}`;
    if (used + line.length > TEAMS_TEXT_MAX) break;
    used += line.length;
    shown += 1;
    body.push({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' });
  }
  const more = parts.more + (parts.items.length - shown);
  if (more > 0)
    body.push({ type: 'TextBlock', text: `and ${more} more`, wrap: true, isSubtle: true });
  const content = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
  };
  if (parts.link) {
    content.actions = [
      { type: 'Action.OpenUrl', title: 'Open in the findings service', url: parts.link },
    ];
  }
  return content;
}

channelKit.serve({
  async deliver({ event, secrets, idempotencyKey, deadlineAt, hosts }) {
    const webhook = secrets.webhook_url;
    if (!webhook) return channelKit.rejected('webhook_url is not set for this project');
    const response = await channelKit.request({
      url: webhook,
      hosts,
      deadlineAt,
      headers: { 'idempotency-key': idempotencyKey },
      json: {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: card(event),
          },
        ],
      },
    });
    return channelKit.answerOf(response, {
      accept: (answer, body) => {
        if (answer.truncated) return undefined;
        const text = answer.text.trim();
        return text === '' || text === '1' || body ? {} : undefined;
      },
      detail: (body) => (body.error && body.error.message) || body.message,
    });
  },
});
