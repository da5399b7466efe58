import {
  AUTO_CLOSURE_ENV,
  autoVerifyProduct,
  createCallbackKey,
  query,
  sarifOf,
  scan,
  ScannerStandIn,
  type ResultSpec,
} from '../support/auto-closure';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';

/**
 * Property: whatever sequence of reports a product receives — partial scans, findings coming
 * and going, uploads with and without `verify_fixes` — no finding present in the latest report
 * that covered it is ever `fixed` by the automatic path. The scanner stand-in is adversarial: it
 * answers `absent` to every re-verification request, so only the service's own guards stand
 * between a present finding and its closure. Sequences come from a seeded generator
 * (AUTO_CLOSURE_PROPERTY_SEED reproduces a run; the seed is printed).
 */
const SEED = Number(process.env.AUTO_CLOSURE_PROPERTY_SEED ?? 20261128);
const SEQUENCES = 4;
const STEPS = 9;
const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'];
const UNIVERSE: ResultSpec[] = FILES.flatMap((file, f) =>
  [0, 1, 2].map((i) => ({ rule: `r${f}${i}`, file, line: 10 * i + 1 })),
);

/** mulberry32: small, fast, good enough to draw test cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface Step {
  scanned: string[];
  present: ResultSpec[];
  verifyFixes: boolean;
}

function drawStep(random: () => number): Step {
  let scanned = FILES.filter(() => random() < 0.7);
  if (scanned.length === 0) scanned = [FILES[Math.floor(random() * FILES.length)]];
  const present = UNIVERSE.filter((r) => scanned.includes(r.file ?? '') && random() < 0.55);
  return { scanned, present, verifyFixes: random() < 0.85 };
}

let s: IngestionStack;
let standIn: ScannerStandIn;

beforeAll(async () => {
  s = await startIngestion({
    worker: true,
    env: { ...AUTO_CLOSURE_ENV, AUTO_CLOSE_MAX_PER_HOUR: '100000' },
  });
  standIn = new ScannerStandIn(s.t, await createCallbackKey(s.t, s.admin));
  standIn.answer = () => 'absent';
  await standIn.start();
});

afterAll(async () => {
  await standIn?.close();
  await s?.close();
});

describe('Automatic closure - random report sequences', () => {
  it(`never closes a finding present in the latest report that covered it (seed ${SEED})`, async () => {
    const random = prng(SEED);
    let closures = 0;
    for (let sequence = 0; sequence < SEQUENCES; sequence++) {
      const product = await autoVerifyProduct(s.t, s.admin);
      await standIn.register(s.admin, product.project_id);
      /** Per file: whether the latest report covering it had each rule present. */
      const latest = new Map<string, Set<string>>();
      for (let step = 0; step < STEPS; step++) {
        const drawn = drawStep(random);
        await scan(s.t, s.admin, product, sarifOf(drawn.present, { artifacts: drawn.scanned }), {
          verifyFixes: drawn.verifyFixes,
        });
        await standIn.settled();
        for (const file of drawn.scanned) {
          latest.set(
            file,
            new Set(drawn.present.filter((r) => r.file === file).map((r) => r.rule)),
          );
        }
        const rows = await query<{ rule_id: string; file_path: string; status: string }>(
          s.t,
          `SELECT rule_id, file_path, status FROM findings WHERE product_id = $1`,
          [product.id],
        );
        for (const row of rows) {
          const presentInLatest = latest.get(row.file_path)?.has(row.rule_id) ?? false;
          if (presentInLatest && row.status === 'fixed') {
            throw new Error(
              `seed ${SEED}, sequence ${sequence}, step ${step}: ${row.rule_id} in ${row.file_path} is fixed but present in the latest report covering it`,
            );
          }
        }
      }
      const [closed] = await query<{ n: number }>(
        s.t,
        `SELECT count(*)::int AS n FROM auto_closures WHERE project_id = $1`,
        [product.project_id],
      );
      closures += closed.n;
    }
    // The property is not vacuous: the sequences did close findings that went away.
    expect(closures).toBeGreaterThan(0);
  });
});
