import { ErrorAlert } from '@platform/web-ui';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  FileInput,
  Group,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, api, call } from '../../api/client';
import { currentAccessToken, refreshSession } from '../../api/session';
import { useI18n } from '../../i18n/i18n';

/**
 * Uploads through XMLHttpRequest (fetch has no upload progress), then follows the report
 * (GET /reports/{id}) until it is completed or failed; a failed report shows its localized
 * parse error. `verify_fixes` makes the report a check of the automatic closure.
 */
function upload(
  productId: string,
  file: File,
  verifyFixes: boolean,
  token: string | undefined,
  lang: string,
  onProgress: (pct: number) => void,
) {
  return new Promise<{ report_id: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/products/${productId}/reports`);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', lang);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { data?: { report_id: string }; error?: string; code?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: reported below by status
      }
      if (xhr.status === 202 && body.data) resolve(body.data);
      else
        reject(
          new ApiError(xhr.status, body.code ?? `http_${xhr.status}`, body.error ?? xhr.statusText),
        );
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'network error'));
    const form = new FormData();
    // Fields before the file: the API reads the form as a stream.
    if (verifyFixes) form.append('verify_fixes', 'true');
    form.append('file', file);
    xhr.send(form);
  });
}

export function ReportUpload({ productId }: { productId: string }) {
  const { t, locale } = useI18n();
  const [file, setFile] = useState<File | null>(null);
  const [verifyFixes, setVerifyFixes] = useState(false);
  const [pct, setPct] = useState<number>();
  const [reportId, setReportId] = useState<string>();
  const [error, setError] = useState<unknown>();
  const report = useQuery({
    queryKey: ['report', reportId],
    enabled: reportId !== undefined,
    queryFn: () =>
      call(
        api.GET('/api/v1/reports/{report_id}', {
          params: { path: { report_id: reportId ?? '' }, header: { 'Accept-Language': locale } },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
  const start = async () => {
    if (!file) return;
    setError(undefined);
    setReportId(undefined);
    setPct(0);
    try {
      // A 401 (expired access token) is retried once after the cookie refresh.
      let accepted: { report_id: string };
      try {
        accepted = await upload(productId, file, verifyFixes, currentAccessToken(), locale, setPct);
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 401) || !(await refreshSession())) throw e;
        accepted = await upload(productId, file, verifyFixes, currentAccessToken(), locale, setPct);
      }
      setReportId(accepted.report_id);
    } catch (e) {
      setError(e);
    }
  };
  const r = report.data;
  return (
    <Stack gap={4} data-testid={`upload-${productId}`}>
      <Group align="end" gap="xs">
        <FileInput
          size="xs"
          w={260}
          label={t('projects.reportFile')}
          value={file}
          onChange={setFile}
          accept=".sarif,.json"
          clearable
          clearButtonProps={{ 'aria-label': t('common.clear') }}
        />
        <Checkbox
          size="xs"
          mb={6}
          label={t('projects.verifyFixes')}
          checked={verifyFixes}
          onChange={(e) => setVerifyFixes(e.currentTarget.checked)}
        />
        <Button size="xs" onClick={() => void start()} disabled={!file}>
          {t('projects.upload')}
        </Button>
      </Group>
      {pct !== undefined && (
        <Progress
          value={pct}
          size="sm"
          aria-label={t('projects.uploading', { pct })}
          data-testid="upload-progress"
        />
      )}
      <ErrorAlert error={error ?? report.error} />
      {r && (
        <Alert
          color={r.status === 'failed' ? 'red.9' : r.status === 'completed' ? '#1e6b30' : 'gray.8'}
          variant="filled"
          data-testid="report-state"
          data-state={r.status}
          title={t('projects.reportState', { state: r.status })}
        >
          {r.status === 'completed' && r.counts && (
            <>
              <Text size="sm" data-testid="report-counts">
                {t('projects.reportCounts', { ...r.counts })}
              </Text>
              <Anchor
                component={Link}
                to={`/findings?last_report_id=${r.id}`}
                size="sm"
                c="white"
                underline="always"
                data-testid="report-findings"
              >
                {t('projects.reportFindings')}
              </Anchor>
            </>
          )}
          {r.status === 'failed' && (
            <Text size="sm">
              {r.failure_reason} ({r.failure_code})
            </Text>
          )}
        </Alert>
      )}
    </Stack>
  );
}
