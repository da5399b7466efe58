// X.509 build-path benchmark (not part of npm test). Run:
//   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/pki/build-bench.ts
// Optional: BENCH_N (certificates per phase, default 5000), BENCH_CRL (CRL entries, default 100000).
import {
  BuiltInCaIssuer,
  generateCaMaterial,
  IssueRequest,
  LeafCertificateBuilder,
  loadIssuingCa,
  parseCsr,
} from '@platform/pki';
import { ecKeyPair, makeCsr, rsaKeyPair } from '@platform/pki/testing';

const N = Number(process.env['BENCH_N'] ?? 5000);
const CRL_ENTRIES = Number(process.env['BENCH_CRL'] ?? 100_000);

const ROUNDS = 5;

/** Prints median and best of ROUNDS timed rounds (the box is shared and noisy); returns the best. */
function measure(label: string, count: number, fn: (i: number) => void): number {
  for (let i = 0; i < Math.min(500, count); i++) fn(i); // warm-up (JIT)
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) fn(i);
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / count);
  }
  rounds.sort((x, y) => x - y);
  const median = rounds[Math.floor(ROUNDS / 2)];
  console.log(
    `${label.padEnd(40)} median ${median.toFixed(1).padStart(7)} µs/cert ${Math.round(1e6 / median)
      .toString()
      .padStart(7)}/s   best ${rounds[0].toFixed(1).padStart(7)} µs`,
  );
  return rounds[0];
}

async function main(): Promise<void> {
  const kek = Buffer.alloc(32, 1);
  const ca = loadIssuingCa(generateCaMaterial(kek), kek);
  const builder = new LeafCertificateBuilder(ca);
  const issuer = new BuiltInCaIssuer(ca);

  const ecCsrs = Array.from({ length: 64 }, (_, i) =>
    makeCsr({ keyPair: ecKeyPair(), commonName: `SN-${i}` }),
  );
  const rsaCsrs = Array.from({ length: 8 }, (_, i) =>
    makeCsr({ keyPair: rsaKeyPair(2048), commonName: `U-${i}` }),
  );
  const parsedEc = ecCsrs.map((der) => parseCsr(der));
  const leaf = (i: number) => ({
    purpose: 'wifi' as const,
    subjectCommonName: `SN-${i}`,
    publicKeySpkiDer: parsedEc[i % 64].publicKeySpkiDer,
    keyAlgorithm: 'ec' as const,
  });
  const tbs = builder.buildTbs(leaf(0)).tbsDer;

  console.log(
    `node ${process.version}, N=${N}, issuing CA ECDSA P-256, leaf EC P-256 unless noted`,
  );
  const a = measure('(a) CSR parse+verify EC P-256', N, (i) => parseCsr(ecCsrs[i % 64]));
  measure('(a) CSR parse+verify RSA-2048', N, (i) => parseCsr(rsaCsrs[i % 8]));
  const b = measure('(b) TBS build', N, (i) => builder.buildTbs(leaf(i)));
  measure('(b) TBS build ad_logon+UPN+SID', N, (i) =>
    builder.buildTbs({
      ...leaf(i),
      purpose: 'ad_logon',
      subjectAltNames: [{ type: 'upn', value: `user${i}@corp.example.com` }],
      sid: `S-1-5-21-1-2-3-${1000 + i}`,
    }),
  );
  const c = measure('(c) signing (ECDSA P-256)', N, () => ca.signer.sign(tbs));
  measure('(d) build+sign (parsed CSR)', N, (i) => builder.issue(leaf(i)));
  const d = measure('(d) full: parse+verify+build+sign', N, (i) => {
    const csr = parseCsr(ecCsrs[i % 64]);
    builder.issue({ ...leaf(i), publicKeySpkiDer: csr.publicKeySpkiDer });
  });

  // Bulk approval as the service will run it: parse+verify the stored CSRs, then issueMany.
  const bulkRounds: number[] = [];
  let issued = 0;
  for (let r = 0; r < 3; r++) {
    const started = process.hrtime.bigint();
    const requests: IssueRequest[] = Array.from({ length: N }, (_, i) => ({
      requestId: `r${i}`,
      purpose: 'wifi',
      csr: parseCsr(ecCsrs[i % 64]),
      subjectCommonName: `SN-${i}`,
    }));
    const outcomes = await issuer.issueMany(requests);
    issued = outcomes.filter((o) => o.status === 'issued').length;
    bulkRounds.push(Number(process.hrtime.bigint() - started) / 1000 / N);
  }
  bulkRounds.sort((x, y) => x - y);
  const bulk = bulkRounds[1];
  console.log(
    `${'(d) bulk: parseCsr + issueMany'.padEnd(40)} median ${bulk.toFixed(1).padStart(7)} µs/cert ${Math.round(
      1e6 / bulk,
    )
      .toString()
      .padStart(7)}/s   best ${bulkRounds[0].toFixed(1).padStart(7)} µs (${issued}/${N} issued)`,
  );
  console.log(
    `share of full issue (best rounds): parse+verify ${((a / d) * 100).toFixed(0)}%, TBS ${((b / d) * 100).toFixed(0)}%, sign ${((c / d) * 100).toFixed(0)}%`,
  );

  const base = Date.now() - 86_400_000 * 30;
  const entries = Array.from({ length: CRL_ENTRIES }, (_, i) => ({
    serial: (0x4000000000000000n + BigInt(i) * 104729n).toString(16).padEnd(32, '0'),
    revokedAt: new Date(base + i * 1000),
    reason: i % 4 === 0 ? ('keyCompromise' as const) : undefined,
  }));
  const crlInput = {
    crlNumber: 1,
    thisUpdate: new Date(),
    nextUpdate: new Date(Date.now() + 86_400_000),
    entries,
  };
  const crlTimes: number[] = [];
  let crlBytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const crlStart = process.hrtime.bigint();
    crlBytes = issuer.buildCrl(crlInput).length;
    crlTimes.push(Number(process.hrtime.bigint() - crlStart) / 1e6);
  }
  const [first] = crlTimes;
  crlTimes.sort((x, y) => x - y);
  console.log(
    `CRL encode+sign ${CRL_ENTRIES} entries (${(crlBytes / 1024 / 1024).toFixed(1)} MiB): first ${first.toFixed(0)} ms, median ${crlTimes[Math.floor(ROUNDS / 2)].toFixed(0)} ms, best ${crlTimes[0].toFixed(0)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
