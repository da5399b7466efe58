// External BI/CMDB table enricher (catalog plugin `cmdb-enricher`).
//
// Reads the servers table of a Metabase-style BI system — `POST <cmdb_base_url>/api/dataset`
// with the query `{database, type: 'query', query: {'source-table': servers_table_id}}`,
// answered as `{data: {cols: [{name}], rows: [[...]]}}` — and tags a finding with the columns
// of the row whose IP column (`ip`, `ip_address` or `address`, first present) equals the
// finding's `ip` (else its `host`). `column_to_tag_key` maps a column to its tag key; without
// it every other column is written under its lower-cased name. The API key (`api_token`,
// secret) is sent as `x-api-key`.
//
// The table is read once per instance: calls of one event (one enrichment job of many
// findings) reuse the instance, so a job reads the table once, not once per finding.
import { getSecret, httpRequest, log } from 'findsvc:plugin/host@0.1.0';

const IP_COLUMNS = ['ip', 'ip_address', 'address'];
const MAX_TAG_VALUE = 256;

let cached; // { key, index: Map<ip, row object>, columns: string[] }

function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

function required(settings, name) {
  const value = settings[name];
  if (value === undefined || value === null || value === '') {
    throw `setting ${name} is required`;
  }
  return value;
}

function tagKey(text) {
  const key = String(text)
    .toLowerCase()
    .replace(/[^a-z0-9_.:-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return key === '' ? undefined : key;
}

function loadTable(settings) {
  const base = String(required(settings, 'cmdb_base_url')).replace(/\/+$/, '');
  const database = Number(required(settings, 'database_id'));
  const table = Number(required(settings, 'servers_table_id'));
  let token;
  try {
    token = getSecret('api_token');
  } catch (error) {
    throw `api_token: ${describeError(error)}`;
  }
  const headers = [
    { name: 'content-type', value: 'application/json' },
    { name: 'accept', value: 'application/json' },
  ];
  if (token) headers.push({ name: 'x-api-key', value: token });
  let response;
  try {
    response = httpRequest({
      method: 'POST',
      url: `${base}/api/dataset`,
      headers,
      body: JSON.stringify({ database, type: 'query', query: { 'source-table': table } }),
    });
  } catch (error) {
    throw `CMDB request failed: ${describeError(error)}`;
  }
  if (response.status === 401 || response.status === 403) {
    throw `CMDB refused the API key (HTTP ${response.status})`;
  }
  if (response.status < 200 || response.status >= 300) {
    throw `CMDB answered HTTP ${response.status}`;
  }
  let parsed;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    throw 'CMDB answer is not JSON';
  }
  const data = parsed && parsed.data;
  if (!data || !Array.isArray(data.cols) || !Array.isArray(data.rows)) {
    throw 'CMDB answer has no data.cols/data.rows';
  }
  const columns = data.cols.map((col) => String(col && col.name));
  const lower = columns.map((name) => name.toLowerCase());
  const ipIndex = IP_COLUMNS.map((name) => lower.indexOf(name)).find((i) => i >= 0);
  if (ipIndex === undefined) {
    throw `table ${table} has no IP column (${IP_COLUMNS.join(', ')})`;
  }
  const index = new Map();
  for (const row of data.rows) {
    if (!Array.isArray(row)) continue;
    const ip = row[ipIndex];
    if (ip === null || ip === undefined || ip === '') continue;
    const key = String(ip).trim();
    if (!index.has(key)) index.set(key, row);
  }
  log('debug', `CMDB table ${table}: ${index.size} addresses`);
  return { index, columns, ipIndex };
}

function tagsFor(row, table, mapping) {
  const tags = [];
  const seen = new Set();
  table.columns.forEach((column, i) => {
    if (i === table.ipIndex) return;
    let key;
    if (mapping) {
      if (!Object.prototype.hasOwnProperty.call(mapping, column)) return;
      key = tagKey(mapping[column]);
    } else {
      key = tagKey(column);
    }
    const value = row[i];
    if (!key || seen.has(key) || value === null || value === undefined || value === '') return;
    seen.add(key);
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    tags.push({ key, value: text.slice(0, MAX_TAG_VALUE) });
  });
  return tags;
}

export const findingEnricher = {
  enrich(ctx, finding) {
    let settings;
    try {
      settings = JSON.parse(ctx.settingsJson);
    } catch {
      throw 'settings are not JSON';
    }
    let mapping = settings.column_to_tag_key;
    if (typeof mapping === 'string' && mapping !== '') {
      try {
        mapping = JSON.parse(mapping);
      } catch {
        throw 'column_to_tag_key is not a JSON object';
      }
    }
    if (
      mapping !== undefined &&
      mapping !== null &&
      (typeof mapping !== 'object' || Array.isArray(mapping))
    ) {
      throw 'column_to_tag_key must be an object of column -> tag key';
    }
    const address = finding.ip || finding.host;
    if (!address) return [];
    const key = ctx.settingsJson;
    if (!cached || cached.key !== key) {
      cached = { key, table: loadTable(settings) };
    }
    const row = cached.table.index.get(String(address).trim());
    if (!row) return [];
    return tagsFor(row, cached.table, mapping || undefined);
  },
};

// scheme, optional user info, a host name or bracketed IPv6 address, optional port, rest.
const ABSOLUTE_URL =
  /^https?:\/\/([^\s/?#@]+@)?([^\s/?#:[\]]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?([/?#]\S*)?$/i;

function positiveInteger(value) {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return Number.isSafeInteger(number) && number > 0;
}

// Capability `config_validator`: the service calls this before it stores a save; every
// problem is named with its setting. Secrets are the candidate values of the save.
export const configValidator = {
  validate(ctx) {
    const problems = [];
    const problem = (setting, message) => problems.push({ setting, message });
    let settings;
    try {
      settings = JSON.parse(ctx.settingsJson);
    } catch {
      settings = undefined;
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) {
      throw [{ setting: '', message: 'the settings are not a JSON object' }];
    }
    const base = settings.cmdb_base_url;
    if (base === undefined || base === null || base === '') {
      problem('cmdb_base_url', 'the address of the CMDB is required');
    } else if (typeof base !== 'string' || !ABSOLUTE_URL.test(base)) {
      problem('cmdb_base_url', 'must be an absolute http(s) URL, e.g. https://bi.example.com');
    } else {
      const port = /:(\d+)$/.exec(base.replace(/^https?:\/\//i, '').split(/[/?#]/)[0]);
      if (port && Number(port[1]) > 65535) {
        problem('cmdb_base_url', 'the port must be at most 65535');
      }
    }
    for (const name of ['database_id', 'servers_table_id']) {
      const value = settings[name];
      if (value === undefined || value === null || value === '') {
        problem(name, 'is required');
      } else if (!positiveInteger(value)) {
        problem(name, 'must be a positive integer');
      }
    }
    let mapping = settings.column_to_tag_key;
    if (typeof mapping === 'string' && mapping.trim() !== '') {
      try {
        mapping = JSON.parse(mapping);
      } catch {
        mapping = 'not json';
      }
    } else if (mapping === '') {
      mapping = undefined;
    }
    if (mapping !== undefined && mapping !== null) {
      if (typeof mapping !== 'object' || Array.isArray(mapping)) {
        problem('column_to_tag_key', 'must be a JSON object mapping a column name to a tag key');
      } else {
        for (const [column, key] of Object.entries(mapping)) {
          if (column.trim() === '') {
            problem('column_to_tag_key', 'a column name must not be empty');
          } else if (typeof key !== 'string' || !tagKey(key)) {
            problem(
              'column_to_tag_key',
              `the tag key of column ${JSON.stringify(column)} must be a non-empty text of letters, digits, '_', '.', ':' or '-'`,
            );
          }
        }
      }
    }
    let token;
    try {
      token = getSecret('api_token');
    } catch (error) {
      problem('api_token', `cannot be read: ${describeError(error)}`);
      token = 'unreadable';
    }
    if (token === undefined || token === null || token === '') {
      problem('api_token', 'the API key is required');
    }
    if (problems.length > 0) throw problems;
  },
};
