import {
  LEAN_TYPE_PARSERS,
  nodePgTypeParser,
  parseTextArray,
  parseTimestamptz,
} from './lean-type-parsers';

const nodePgTimestamptz = nodePgTypeParser(1184, 'text');
const nodePgTextArray = nodePgTypeParser(1009, 'text');
/** The lean config's parser of an oid, typed for any oid. */
const leanParser = LEAN_TYPE_PARSERS.getTypeParser as typeof nodePgTypeParser;

/** Dates compare by their time (and NaN alike), anything else as is. */
const comparable = (v: unknown): unknown =>
  v instanceof Date
    ? { date: v.getTime(), iso: Number.isNaN(v.getTime()) ? null : v.toISOString() }
    : v;

describe('lean type parsers: the same values as node-pg', () => {
  it('timestamptz at UTC with every fraction length, and whatever it hands back', () => {
    const inputs = [
      '2026-12-01 10:54:06+00',
      '2026-12-01 10:54:06.5+00',
      '2026-12-01 10:54:06.02+00',
      '2026-12-01 10:54:06.029+00',
      '2026-12-01 10:54:06.0291+00',
      '2026-12-01 10:54:06.02695+00',
      '2026-12-01 10:54:06.026951+00',
      '2026-12-01 10:54:06.999999+00',
      '2026-02-29 23:59:59.999+00', // not a leap year: Date.UTC rolls over, as node-pg does
      '1970-01-01 00:00:00+00',
      '0100-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
      // handed to node-pg's parser
      '0099-01-01 00:00:00+00',
      '0001-01-01 00:00:00+00 BC',
      '12026-12-01 10:54:06+00',
      '2026-12-01 10:54:06.026951+02',
      '2026-12-01 10:54:06-05:30',
      '2026-12-01 10:54:06.1234567+00',
      'infinity',
      '-infinity',
      '2026-12-01',
      'garbage+00',
      'x026-12-01 10:54:06+00',
    ];
    // every millisecond fraction with three and six digits, and random ones
    for (let f = 0; f < 1000; f++)
      inputs.push(`2026-03-04 05:06:07.${String(f).padStart(3, '0')}+00`);
    for (let i = 0; i < 5000; i++) {
      const t = Math.floor(Math.random() * 253_402_300_799_000);
      const iso = new Date(t).toISOString();
      const micros = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
      const digitsKept = 1 + Math.floor(Math.random() * 6);
      inputs.push(`${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros.slice(0, digitsKept)}+00`);
    }
    for (const input of inputs)
      expect([input, comparable(parseTimestamptz(input))]).toEqual([
        input,
        comparable(nodePgTimestamptz(input)),
      ]);
  });

  it('text[]: unquoted elements here, anything quoted, escaped or nested by node-pg', () => {
    const inputs = [
      '{}',
      '{pci}',
      '{CWE-79,CWE-89}',
      '{a,NULL,b}',
      '{NULL}',
      '{nULL,null}',
      '{"NULL"}',
      '{"a b","c,d"}',
      '{"quote \\" and \\\\"}',
      '{{a,b},{c,d}}',
      '[1:2]={a,b}',
      '{ü,✓,🔐}',
    ];
    for (const input of inputs)
      expect([input, parseTextArray(input)]).toEqual([input, nodePgTextArray(input)]);
  });

  it('hands out these two for text and node-pg its own parsers for everything else', () => {
    expect(leanParser(1184, 'text')).toBe(parseTimestamptz);
    expect(leanParser(1009, 'text')).toBe(parseTextArray);
    expect(leanParser(1015, 'text')).toBe(parseTextArray);
    expect(leanParser(1184, 'binary')).toBe(nodePgTypeParser(1184, 'binary'));
    for (const oid of [16, 20, 23, 700, 1114, 3802, 2950])
      expect(leanParser(oid, 'text')).toBe(nodePgTypeParser(oid, 'text'));
  });
});
