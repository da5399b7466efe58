// telegram-channel: POST {api_base_url}/bot{bot_token}/sendMessage
// {chat_id, text, parse_mode: "HTML", disable_web_page_preview: true}
// → {ok: true, result: {message_id}}; errors {ok: false, error_code, description,
// parameters: {retry_after}}. The token is part of the path: no message names the URL.
const TELEGRAM_API = 'https://api.telegram.org';
const TELEGRAM_TEXT_MAX = 4096;

channelKit.serve({
  async deliver({ event, settings, secrets, idempotencyKey, deadlineAt, hosts }) {
    const token = secrets.bot_token;
    const chatId = settings.chat_id;
    if (!token) return channelKit.rejected('bot_token is not set for this project');
    if (!chatId) return channelKit.rejected('chat_id is not set for this project');
    if (!/^[A-Za-z0-9:_-]{1,200}$/.test(token)) {
      return channelKit.rejected('bot_token is not a bot token (letters, digits, ":", "_", "-")');
    }
    const base = (settings.api_base_url || TELEGRAM_API).replace(/\/+$/, '');
    const response = await channelKit.request({
      url: `${base}/bot${token}/sendMessage`,
      hosts,
      deadlineAt,
      headers: { 'idempotency-key': idempotencyKey },
      json: {
        chat_id: chatId,
        text: channelKit.renderText(event, { format: 'html', maxLength: TELEGRAM_TEXT_MAX }),
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      },
    });
    return channelKit.answerOf(response, {
      accept: (_response, body) =>
        body && body.ok === true
          ? { message_id: body.result ? body.result.message_id : undefined }
          : undefined,
      detail: (body) => body.description,
      retryAfter: (body) =>
        body.parameters && Number.isInteger(body.parameters.retry_after)
          ? body.parameters.retry_after
          : undefined,
    });
  },
});
