// National threat-database enricher (catalog plugin `bdu-enricher`).
//
// For a finding with a CVE: `GET <bdu_base_url>/api/v1/vulnerabilities?cve=<CVE>` on the
// operator's mirror, answered as
//   {"items": [{"id": "BDU:2021-05969", "name": "...", "severity": "critical|high|medium|low",
//               "cvss3": {"score": 10.0, "vector": "AV:N/..."}, "cve": ["CVE-2021-44228"],
//               "exploit": "exists|possible|unknown", "fix": "available|unavailable|unknown",
//               "published": "2021-12-10"}]}
// (docs/plugins/catalog-plugins.md). Empty `items` = the database does not know the CVE (no
// tags); 404, any other non-2xx answer, a non-JSON answer or an answer without `items` fail
// the call (the finding's tags stay as they were). Tags: `bdu-id` (identifiers,
// comma-separated), `bdu-severity`, `bdu-cvss3-score`, `bdu-exploit`, `bdu-fix` (the most
// severe entry's values). The optional `api_token` secret is sent as `Authorization: Bearer`.
//
// Each CVE is read once per instance, i.e. once per enrichment job.
import { getSecret, httpRequest } from 'findsvc:plugin/host@0.1.0';

const CVE_ID = /^CVE-\d{4}-\d{4,}$/;
const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low'];
const MAX_TAG_VALUE = 256;
const answers = new Map(); // cve -> items[]

function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

function parseSettings(ctx) {
  try {
    const settings = JSON.parse(ctx.settingsJson);
    return settings && typeof settings === 'object' ? settings : {};
  } catch {
    throw 'settings are not JSON';
  }
}

function baseUrl(settings) {
  const value = settings.bdu_base_url;
  if (typeof value !== 'string' || value === '') throw 'setting bdu_base_url is required';
  return value.replace(/\/+$/, '');
}

function lookup(settings, cve) {
  if (answers.has(cve)) return answers.get(cve);
  let token;
  try {
    token = getSecret('api_token');
  } catch (error) {
    throw `api_token: ${describeError(error)}`;
  }
  const headers = [{ name: 'accept', value: 'application/json' }];
  if (token) headers.push({ name: 'authorization', value: `Bearer ${token}` });
  let response;
  try {
    response = httpRequest({
      method: 'GET',
      url: `${baseUrl(settings)}/api/v1/vulnerabilities?cve=${encodeURIComponent(cve)}`,
      headers,
      body: undefined,
    });
  } catch (error) {
    throw `threat database request failed: ${describeError(error)}`;
  }
  if (response.status < 200 || response.status >= 300) {
    throw `threat database answered HTTP ${response.status}`;
  }
  let answer;
  try {
    answer = JSON.parse(response.body);
  } catch {
    throw 'threat database answer is not JSON';
  }
  if (!answer || !Array.isArray(answer.items)) throw 'threat database answer has no items list';
  const items = answer.items.filter(
    (item) =>
      item &&
      typeof item.id === 'string' &&
      (!Array.isArray(item.cve) || item.cve.some((c) => String(c).toUpperCase() === cve)),
  );
  answers.set(cve, items);
  return items;
}

function rank(item) {
  const i = SEVERITY_ORDER.indexOf(String(item.severity || '').toLowerCase());
  return i < 0 ? SEVERITY_ORDER.length : i;
}

function word(value) {
  return typeof value === 'string' && /^[a-z]{1,32}$/i.test(value)
    ? value.toLowerCase()
    : undefined;
}

export const findingEnricher = {
  enrich(ctx, finding) {
    const settings = parseSettings(ctx);
    const cve = finding.cve ? String(finding.cve).trim().toUpperCase() : undefined;
    if (!cve || !CVE_ID.test(cve)) return [];
    const items = lookup(settings, cve);
    if (items.length === 0) return [];
    const sorted = [...items].sort((a, b) => rank(a) - rank(b));
    const top = sorted[0];
    const tags = [
      {
        key: 'bdu-id',
        value: items
          .map((item) => item.id)
          .join(',')
          .slice(0, MAX_TAG_VALUE),
      },
    ];
    const severity = word(top.severity);
    if (severity) tags.push({ key: 'bdu-severity', value: severity });
    const score = top.cvss3 && typeof top.cvss3.score === 'number' ? top.cvss3.score : undefined;
    if (score !== undefined && score >= 0 && score <= 10) {
      tags.push({ key: 'bdu-cvss3-score', value: score.toFixed(1) });
    }
    const exploit = word(top.exploit);
    if (exploit) tags.push({ key: 'bdu-exploit', value: exploit });
    const fix = word(top.fix);
    if (fix) tags.push({ key: 'bdu-fix', value: fix });
    return tags;
  },
};

// Capability `config_validator`: every problem named with its setting.
export const configValidator = {
  validate(ctx) {
    let settings;
    try {
      settings = JSON.parse(ctx.settingsJson);
    } catch {
      settings = undefined;
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) {
      throw [{ setting: '', message: 'the settings are not a JSON object' }];
    }
    const url = settings.bdu_base_url;
    if (url === undefined || url === null || url === '') {
      throw [{ setting: 'bdu_base_url', message: 'the address of the mirror is required' }];
    }
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i.test(url)) {
      throw [
        {
          setting: 'bdu_base_url',
          message:
            'must be an absolute http(s) URL without query, e.g. https://bdu-mirror.example.org',
        },
      ];
    }
  },
};
