// email-channel: no network of its own (allowed_hosts: []). Renders {subject, body} from the
// event and asks the runner's SendEmail host call to send it; the findings service picks the
// recipients (the project's), the mail server, From, the subject prefix and a Message-ID
// derived from the delivery's idempotency key. `unavailable` → FAILED (retried);
// `not_configured`, `denied`, `invalid` → REJECTED.
const EMAIL_SUBJECT_MAX = 200;
const EMAIL_BODY_MAX = 20_000;

channelKit.serve({
  async deliver({ event, hostCallToken, deadlineAt }) {
    const subject = channelKit.renderParts(event).header.slice(0, EMAIL_SUBJECT_MAX);
    const body = channelKit.renderText(event, { format: 'mail', maxLength: EMAIL_BODY_MAX });
    const messageId = await channelKit.sendEmail({
      token: hostCallToken,
      subject,
      body: `${body}\n`,
      deadlineAt,
    });
    return channelKit.delivered('sent', { message_id: messageId });
  },
});
