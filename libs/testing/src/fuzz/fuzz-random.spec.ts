import { FuzzRandom } from './fuzz-random';
import { DEFAULT_FUZZ_SEED, fuzzSettings } from './fuzz-settings';

const defaults = { modestRequests: 100, fullRequests: 5000 };

describe('FuzzRandom', () => {
  it('gives the same sequence for the same seed and another one for another seed', () => {
    const draw = (seed: number) => Array.from({ length: 20 }, () => new FuzzRandom(seed).next());
    const a = new FuzzRandom(42);
    const b = new FuzzRandom(42);
    const c = new FuzzRandom(43);
    const seqA = Array.from({ length: 50 }, () => a.int(1000));
    expect(Array.from({ length: 50 }, () => b.int(1000))).toEqual(seqA);
    expect(Array.from({ length: 50 }, () => c.int(1000))).not.toEqual(seqA);
    expect(draw(7)).toEqual(draw(7));
  });

  it('stays in range and shuffles into a permutation', () => {
    const r = new FuzzRandom(1);
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    const items = Array.from({ length: 30 }, (_, i) => i);
    const shuffled = r.shuffle(items);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
  });

  it('forks streams that depend on the label and the seed only', () => {
    const root = new FuzzRandom(9);
    root.next();
    const forked = root.fork('GET /a').int(1e9);
    expect(new FuzzRandom(9).fork('GET /a').int(1e9)).toBe(forked);
    expect(new FuzzRandom(9).fork('GET /b').int(1e9)).not.toBe(forked);
    expect(new FuzzRandom(10).fork('GET /a').int(1e9)).not.toBe(forked);
  });
});

describe('fuzzSettings', () => {
  it('reads FUZZ_SEED (decimal or hex), FUZZ_SIZE and FUZZ_REQUESTS', () => {
    expect(fuzzSettings({ FUZZ_SEED: '1234' }, defaults)).toEqual({
      seed: 1234,
      size: 'modest',
      requests: 100,
    });
    expect(fuzzSettings({ FUZZ_SEED: '0x10', FUZZ_SIZE: 'full' }, defaults)).toEqual({
      seed: 16,
      size: 'full',
      requests: 5000,
    });
    expect(fuzzSettings({ FUZZ_SEED: '5', FUZZ_REQUESTS: '77' }, defaults).requests).toBe(77);
  });

  it('uses the fixed default seed when none is given, a fresh one for FUZZ_SEED=random', () => {
    expect(fuzzSettings({}, defaults).seed).toBe(DEFAULT_FUZZ_SEED);
    const drawn = [1, 2, 3].map(() => fuzzSettings({ FUZZ_SEED: 'random' }, defaults).seed);
    expect(drawn.every((seed) => Number.isSafeInteger(seed) && seed > 0)).toBe(true);
    expect(new Set(drawn).size).toBeGreaterThan(1);
  });

  it('refuses malformed values instead of silently running another size', () => {
    expect(() => fuzzSettings({ FUZZ_SIZE: 'huge' }, defaults)).toThrow(/FUZZ_SIZE/);
    expect(() => fuzzSettings({ FUZZ_REQUESTS: '-3' }, defaults)).toThrow(/FUZZ_REQUESTS/);
    expect(() => fuzzSettings({ FUZZ_SEED: 'abc' }, defaults)).toThrow(/FUZZ_SEED/);
  });
});
