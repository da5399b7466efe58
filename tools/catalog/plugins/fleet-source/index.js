// Endpoint fleet manager finding source (catalog plugin `fleet-source`).
//
// Polls a FleetDM-style API: `GET <fleet_base_url>/api/v1/fleet/hosts?populate_software=true
// &page=N&per_page=500` (Bearer `api_token`) answered as `{hosts: [{id, hostname,
// display_name, primary_ip, os_version, platform, status, team_id, team_name, software:
// [{name, version, source, vulnerabilities: [{cve, cvss_score?, cisa_known_exploit?}]}]}]}`,
// page after page until a short page. Every host is a node (key `fleet-host-<id>`); every
// vulnerability of its software is a finding (rule = the CVE, component = software name).
// A vulnerability without `cvss_score` (free edition) is looked up at
// `GET <fleet_base_url>/api/v1/fleet/vulnerabilities/<cve>`, at most
// `cve_severity_max_lookups` per pass and while the fleet manager's `Date` headers say less
// than `cve_severity_budget_seconds` passed (the sandbox has no clock); beyond either ceiling
// the finding's severity is MEDIUM.
//
// Answers `poll-error` — never an empty batch — when the system cannot be polled.
import { getSecret, httpRequest, log } from 'findsvc:plugin/host@0.1.0';

const PER_PAGE = 500;
const MAX_PAGES = 1000;

function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

function fail(tag, text) {
  return { tag, val: text };
}

function severityOf(score) {
  if (typeof score !== 'number' || Number.isNaN(score)) return undefined;
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  if (score > 0) return 'LOW';
  return 'INFO';
}

function dateOf(response) {
  const header = response.headers.find((h) => h.name.toLowerCase() === 'date');
  const at = header ? Date.parse(header.value) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

function get(base, path, token) {
  const headers = [{ name: 'accept', value: 'application/json' }];
  if (token) headers.push({ name: 'authorization', value: `Bearer ${token}` });
  let response;
  try {
    response = httpRequest({ method: 'GET', url: `${base}${path}`, headers, body: undefined });
  } catch (error) {
    const text = describeError(error);
    throw fail(
      text.startsWith('denied') || text.startsWith('invalid') ? 'misconfigured' : 'unreachable',
      `fleet manager: ${text}`,
    );
  }
  return response;
}

function json(response, what) {
  try {
    return JSON.parse(response.body);
  } catch {
    throw fail('failed', `${what}: answer is not JSON`);
  }
}

export const findingSource = {
  poll(ctx) {
    let settings;
    try {
      settings = JSON.parse(ctx.settingsJson);
    } catch {
      throw fail('misconfigured', 'settings are not JSON');
    }
    if (!settings.fleet_base_url) throw fail('misconfigured', 'setting fleet_base_url is required');
    if (!settings.target_project_id)
      throw fail('misconfigured', 'setting target_project_id is required');
    const edition = String(settings.fleet_edition || 'free').toLowerCase();
    if (edition !== 'free' && edition !== 'premium') {
      throw fail('misconfigured', `fleet_edition must be free or premium, not ${edition}`);
    }
    const base = String(settings.fleet_base_url).replace(/\/+$/, '');
    let token;
    try {
      token = getSecret('api_token') || undefined;
    } catch (error) {
      throw fail('misconfigured', `api_token: ${describeError(error)}`);
    }
    const maxLookups = Number.isInteger(settings.cve_severity_max_lookups)
      ? Math.max(0, settings.cve_severity_max_lookups)
      : 50;
    const budgetMs =
      (Number.isInteger(settings.cve_severity_budget_seconds)
        ? Math.max(0, settings.cve_severity_budget_seconds)
        : 30) * 1000;

    const hosts = [];
    let startedAt;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const response = get(
        base,
        `/api/v1/fleet/hosts?populate_software=true&page=${page}&per_page=${PER_PAGE}&order_key=id`,
        token,
      );
      if (startedAt === undefined) startedAt = dateOf(response);
      if (response.status === 401 || response.status === 403) {
        throw fail('unauthorized', `fleet manager refused the token (HTTP ${response.status})`);
      }
      if (response.status === 404) {
        throw fail('misconfigured', `${base}/api/v1/fleet/hosts not found (HTTP 404)`);
      }
      if (response.status < 200 || response.status >= 300) {
        throw fail('failed', `fleet manager answered HTTP ${response.status}`);
      }
      const body = json(response, 'hosts');
      if (!body || !Array.isArray(body.hosts))
        throw fail('failed', 'hosts: answer has no hosts list');
      hosts.push(...body.hosts);
      if (body.hosts.length < PER_PAGE) break;
    }

    const nodes = [];
    const findings = [];
    const lookups = new Map(); // cve -> severity | undefined
    let lookupsDone = 0;
    let budgetSpent = false;
    const lookupSeverity = (cve) => {
      if (lookups.has(cve)) return lookups.get(cve);
      if (lookupsDone >= maxLookups || budgetSpent) return undefined;
      lookupsDone += 1;
      const response = get(base, `/api/v1/fleet/vulnerabilities/${encodeURIComponent(cve)}`, token);
      const at = dateOf(response);
      if (startedAt !== undefined && at !== undefined && at - startedAt >= budgetMs)
        budgetSpent = true;
      let severity;
      if (response.status >= 200 && response.status < 300) {
        const body = json(response, 'vulnerability');
        severity = severityOf(
          body && body.vulnerability ? body.vulnerability.cvss_score : undefined,
        );
      }
      lookups.set(cve, severity);
      return severity;
    };

    let skipped = 0;
    for (const host of hosts) {
      if (!host || host.id === undefined || host.id === null) continue;
      if (settings.stale_host_ignore === true && String(host.status) === 'missing') {
        skipped += 1;
        continue;
      }
      const key = `fleet-host-${host.id}`;
      const product =
        edition === 'premium' && host.team_name
          ? String(host.team_name)
          : settings.default_product_name
            ? String(settings.default_product_name)
            : undefined;
      const attributes = [];
      if (host.platform) attributes.push({ key: 'platform', value: String(host.platform) });
      if (host.status) attributes.push({ key: 'fleet-status', value: String(host.status) });
      if (edition === 'premium' && host.team_name)
        attributes.push({ key: 'fleet-team', value: String(host.team_name) });
      nodes.push({
        key,
        hostname: host.hostname
          ? String(host.hostname)
          : host.display_name
            ? String(host.display_name)
            : undefined,
        ip: host.primary_ip ? String(host.primary_ip) : undefined,
        os: host.os_version ? String(host.os_version) : undefined,
        product,
        attributes,
      });
      for (const software of Array.isArray(host.software) ? host.software : []) {
        for (const vulnerability of Array.isArray(software.vulnerabilities)
          ? software.vulnerabilities
          : []) {
          const cve =
            vulnerability && vulnerability.cve
              ? String(vulnerability.cve).toUpperCase()
              : undefined;
          if (!cve) continue;
          const severity = severityOf(vulnerability.cvss_score) ?? lookupSeverity(cve) ?? 'MEDIUM';
          const exploited = vulnerability.cisa_known_exploit === true ? ' (known exploited)' : '';
          findings.push({
            nodeKey: key,
            rule: cve,
            severity,
            description:
              `${software.name} ${software.version ?? ''} is affected by ${cve}${exploited}`.replace(
                /\s+/g,
                ' ',
              ),
            cve,
            component: software.name ? String(software.name) : undefined,
            componentVersion: software.version ? String(software.version) : undefined,
            port: undefined,
            protocol: undefined,
          });
        }
      }
    }
    log(
      'info',
      `fleet poll: ${nodes.length} hosts, ${findings.length} findings, ${skipped} stale skipped, ${lookupsDone} severity lookups`,
    );
    return { nodes, findings };
  },
};
