/**
 * Reports written by the browser tests themselves, in the shapes real scanners write them
 * (SARIF 2.1.0): a secret scanner (gitleaks: rules with only an id, a name and a short
 * description, results without `level`), a CodeQL-style code scanner (rules with names and
 * default levels, messages with `[text](id)` links, related locations, code flows, the
 * repository's commit in `versionControlProvenance`) and a dependency scanner (one rule per
 * CVE, package and version in the result's properties), plus a network scanner (host, port).
 */

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** gitleaks 8.x: no levels anywhere, so the effective level is `warning` (SARIF §3.27.10). */
export function secretScannerReport(secrets: { file: string; line: number; rule?: string }[]) {
  return JSON.stringify({
    version: '2.1.0',
    $schema: SCHEMA,
    runs: [
      {
        tool: {
          driver: {
            name: 'gitleaks',
            semanticVersion: 'v8.21.2',
            informationUri: 'https://github.com/gitleaks/gitleaks',
            rules: [
              {
                id: 'aws-access-token',
                name: 'AWS',
                shortDescription: {
                  text: 'Identified a pattern that may indicate AWS credentials, risking unauthorized cloud resource access and data breaches on AWS platforms.',
                },
              },
              {
                id: 'generic-api-key',
                name: 'GenericAPIKey',
                shortDescription: {
                  text: 'Detected a Generic API Key, potentially exposing access to various services and sensitive operations.',
                },
              },
            ],
          },
        },
        results: secrets.map((s) => {
          const rule = s.rule ?? 'aws-access-token';
          return {
            message: { text: `${rule} has detected secret for file ${s.file}.` },
            ruleId: rule,
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: s.file },
                  region: {
                    startLine: s.line,
                    startColumn: 18,
                    endLine: s.line,
                    endColumn: 38,
                    snippet: { text: 'REDACTED' },
                  },
                },
              },
            ],
            partialFingerprints: {
              commitSha: '',
              email: '',
              author: '',
              date: '',
              commitMessage: '',
            },
          };
        }),
      },
    ],
  });
}

export const CODEQL_COMMIT = '4f1c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d';
/** The lines 42-43 of the sink (indented with two spaces, then a tab). */
export const CODEQL_REGION_SNIPPET =
  "  const name = req.query.name;\n\tdb.query(`SELECT * FROM users WHERE name = '${name}'`);";
/** The lines 41-44 around it. */
export const CODEQL_CONTEXT_SNIPPET = `router.get("/search", (req, res) => {\n${CODEQL_REGION_SNIPPET}\n});`;

/**
 * CodeQL for JavaScript: `count` SQL injections (one per file `src/routes/route-<i>.js`, line
 * 42-43, the snippet of those lines and the context of 41-44) whose message links `[user-provided value](1)` to
 * the related location 1, with a two-step code flow from the source to the sink.
 */
export function codeqlReport(count: number, repositoryUri = 'https://git.example.test/acme/shop') {
  const results = Array.from({ length: count }, (_, i) => {
    const file = `src/routes/route-${String(i).padStart(3, '0')}.js`;
    const at = (line: number, startColumn: number, endColumn: number) => ({
      artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' },
      region: { startLine: line, startColumn, endColumn },
    });
    return {
      ruleId: 'js/sql-injection',
      ruleIndex: 0,
      message: { text: 'This query string depends on a [user-provided value](1).' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' },
            region: {
              startLine: 42,
              endLine: 43,
              startColumn: 2,
              endColumn: 60,
              snippet: { text: CODEQL_REGION_SNIPPET },
            },
            contextRegion: {
              startLine: 41,
              endLine: 44,
              snippet: { text: CODEQL_CONTEXT_SNIPPET },
            },
          },
        },
      ],
      partialFingerprints: { primaryLocationLineHash: `${(1000 + i).toString(16)}c2b0e7d2c95a4:1` },
      relatedLocations: [
        {
          id: 1,
          physicalLocation: at(42, 16, 30),
          message: { text: 'user-provided value' },
        },
      ],
      codeFlows: [
        {
          threadFlows: [
            {
              locations: [
                {
                  location: {
                    physicalLocation: at(42, 16, 30),
                    message: { text: 'req.query.name' },
                  },
                },
                { location: { physicalLocation: at(43, 11, 58), message: { text: 'query' } } },
              ],
            },
          ],
        },
      ],
    };
  });
  return JSON.stringify({
    version: '2.1.0',
    $schema: SCHEMA,
    runs: [
      {
        tool: {
          driver: {
            name: 'CodeQL',
            organization: 'GitHub',
            semanticVersion: '2.19.3',
            rules: [
              {
                id: 'js/sql-injection',
                name: 'js/sql-injection',
                shortDescription: { text: 'Database query built from user-controlled sources' },
                fullDescription: {
                  text: 'Building a database query from user-controlled sources is vulnerable to insertion of malicious code by the user.',
                },
                defaultConfiguration: { enabled: true, level: 'error' },
                properties: {
                  tags: ['security', 'external/cwe/cwe-089'],
                  'security-severity': '8.8',
                },
              },
            ],
          },
        },
        versionControlProvenance: [{ repositoryUri, revisionId: CODEQL_COMMIT }],
        results,
      },
    ],
  });
}

/** A dependency scanner: two CVEs of one package (log4j-core 2.14.1) and one of another. */
export function dependencyScannerReport() {
  const vulnerability = (
    cve: string,
    pkg: string,
    version: string,
    manifest: string,
    fixed: string,
  ) => ({
    ruleId: cve,
    level: 'error',
    message: {
      text: `Package: ${pkg}\nInstalled Version: ${version}\nVulnerability ${cve}\nSeverity: CRITICAL\nFixed Version: ${fixed}`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: manifest, uriBaseId: 'ROOTPATH' },
          region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 },
        },
      },
    ],
    properties: { packageName: pkg, installedVersion: version, fixedVersion: fixed },
  });
  const rule = (id: string, text: string, score: string) => ({
    id,
    name: 'LanguageSpecificPackageVulnerability',
    shortDescription: { text },
    defaultConfiguration: { level: 'error' },
    properties: { 'security-severity': score, tags: ['vulnerability', 'security', 'CRITICAL'] },
  });
  return JSON.stringify({
    version: '2.1.0',
    $schema: SCHEMA,
    runs: [
      {
        tool: {
          driver: {
            name: 'DepScan',
            version: '0.49.1',
            rules: [
              rule('CVE-2021-44228', 'log4j-core: Remote code execution in Log4j 2.x', '10.0'),
              rule('CVE-2021-45046', 'log4j-core: DoS in log4j 2.x with thread context', '9.0'),
              rule('CVE-2022-22965', 'spring-framework: RCE via Data Binding on JDK 9+', '9.8'),
            ],
          },
        },
        results: [
          vulnerability(
            'CVE-2021-44228',
            'org.apache.logging.log4j:log4j-core',
            '2.14.1',
            'services/orders/pom.xml',
            '2.15.0',
          ),
          vulnerability(
            'CVE-2021-45046',
            'org.apache.logging.log4j:log4j-core',
            '2.14.1',
            'services/orders/pom.xml',
            '2.16.0',
          ),
          vulnerability(
            'CVE-2022-22965',
            'org.springframework:spring-beans',
            '5.3.17',
            'services/orders/pom.xml',
            '5.3.18',
          ),
        ],
      },
    ],
  });
}

/** A network scanner: one weak SSH key exchange on a host's port 22. */
export function networkScannerReport(host: string, ip: string, port: number) {
  return JSON.stringify({
    version: '2.1.0',
    $schema: SCHEMA,
    runs: [
      {
        tool: {
          driver: {
            name: 'NetAudit',
            version: '4.2.0',
            rules: [
              {
                id: 'ssh-weak-kex',
                shortDescription: { text: 'SSH server supports weak key exchange algorithms' },
                defaultConfiguration: { level: 'warning' },
              },
            ],
          },
        },
        results: [
          {
            ruleId: 'ssh-weak-kex',
            message: { text: 'diffie-hellman-group1-sha1 is offered' },
            properties: { host, ip, port, protocol: 'TCP', service: 'ssh' },
          },
        ],
      },
    ],
  });
}
