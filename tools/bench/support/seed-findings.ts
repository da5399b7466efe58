/**
 * Seeds findings set-based (the query and web UI benches): $1 product id, $2 project id, $3 how
 * many, $4 a salt for the identity hashes. Severity, status, scanner, host and path are spread
 * so that each filter matches a realistic share.
 */
export const SEED_FINDINGS_SQL = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, host, file_path, scanner, cwe, tags, sla_days, first_seen_at,
  last_seen_at, created_at)
SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'code',
  'rule-' || (g % 400),
  'Finding ' || g || ' ' || (ARRAY['SQL injection','XSS','Weak cipher','Outdated dependency','Hardcoded secret'])[1 + g % 5],
  'Seeded description of finding ' || g,
  (ARRAY['CRITICAL','HIGH','MEDIUM','MEDIUM','LOW','LOW','INFO'])[1 + (g * 7919) % 7],
  (ARRAY['new','new','new','confirmed','confirmed','in_progress','fixed','fixed','false_positive','risk_accepted','wont_fix','renewed'])[1 + (g * 104729) % 12],
  CASE WHEN g % 10 < 3 THEN 'app-' || (g % 97) || '.prod.example.com'
       WHEN g % 10 < 8 THEN 'app-' || (g % 89) || '.staging.example.com' ELSE NULL END,
  CASE WHEN g % 4 = 0 THEN 'lib/vendor/pkg-' || (g % 50) || '/index.js'
       ELSE 'src/module-' || (g % 200) || '/file-' || (g % 37) || '.ts' END,
  (ARRAY['semgrep','trivy','zap','sonarqube','gitleaks'])[1 + (g * 31) % 5],
  ARRAY['CWE-' || (g % 120)],
  CASE WHEN g % 20 = 0 THEN ARRAY['pci'] ELSE '{}'::text[] END,
  30,
  now() - ((g % 525600) || ' minutes')::interval,
  now() - ((g % 10000) || ' minutes')::interval,
  now() - ((g % 525600) || ' minutes')::interval
FROM generate_series(1::bigint, $3::bigint) AS g`;
