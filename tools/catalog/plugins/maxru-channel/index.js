// maxru-channel: POST {base_url}/messages?chat_id={chat_id}, header Authorization:
// {access_token}, {text, format: "markdown"} → {message: {body: {mid}}}; errors JSON
// {code, message} (4xx REJECTED; 429 with Retry-After, 5xx FAILED). The token travels in a
// header only: no message names it.
const MAX_API = 'https://botapi.max.ru';
const MAX_TEXT_MAX = 4000;

channelKit.serve({
  async deliver({ event, settings, secrets, idempotencyKey, deadlineAt, hosts }) {
    const token = secrets.access_token;
    const chatId = settings.chat_id;
    if (!token) return channelKit.rejected('access_token is not set for this project');
    if (!chatId) return channelKit.rejected('chat_id is not set for this project');
    if (!/^-?\d{1,20}$/.test(chatId)) return channelKit.rejected('chat_id must be a number');
    const base = (settings.base_url || MAX_API).replace(/\/+$/, '');
    const response = await channelKit.request({
      url: `${base}/messages?chat_id=${encodeURIComponent(chatId)}`,
      hosts,
      deadlineAt,
      headers: { authorization: token, 'idempotency-key': idempotencyKey },
      json: {
        text: channelKit.renderText(event, { format: 'markdown', maxLength: MAX_TEXT_MAX }),
        format: 'markdown',
      },
    });
    return channelKit.answerOf(response, {
      accept: (_answer, body) =>
        body && body.message && body.message.body
          ? { message_id: body.message.body.mid }
          : undefined,
      detail: (body) => [body.code, body.message].filter(Boolean).join(' '),
    });
  },
});
