import { scrubSecretText, serializeRequest } from '@platform/logging';
import { DOWNLOAD_TOKEN_PARAM } from './download-links';

/**
 * A download link carries its secret in the URL (a browser navigation has no header): every
 * line about the request, and the trace's URL, must show it as `[redacted]`. The logging
 * library redacts any query parameter whose name holds `token`; this keeps the name honest.
 */
describe('download links in logs', () => {
  const token = 'dl_c2VjcmV0LXZhbHVlLW5ldmVyLWxvZ2dlZA';
  const url = `/api/v1/findings/export.csv?severity=HIGH&${DOWNLOAD_TOKEN_PARAM}=${token}`;

  it('the request line and its parsed query show the token redacted, the selection kept', () => {
    const logged = JSON.stringify(
      serializeRequest({
        method: 'GET',
        url,
        query: { severity: 'HIGH', [DOWNLOAD_TOKEN_PARAM]: token },
      }),
    );
    expect(logged).not.toContain(token);
    expect(logged).toContain('severity=HIGH');
    expect(logged).toContain('[redacted]');
  });

  it('the URL as text (a trace attribute, a message) shows it redacted', () => {
    expect(scrubSecretText(url)).toBe(
      `/api/v1/findings/export.csv?severity=HIGH&${DOWNLOAD_TOKEN_PARAM}=[redacted]`,
    );
  });
});
