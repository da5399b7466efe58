// @ts-check
/**
 * The runner's smallest test plugin (a 2 KB component, no JavaScript engine inside): an
 * enricher written in WebAssembly text whose `enrich` answers `ok([{ key: "soak", value:
 * "ok" }])` for any finding. Built with jco's wasm-tools API (parse, embed the WIT world
 * `enricher`, make the component) — fully offline, in well under a second. Used where the
 * test is about the runner, not the plugin: the soak test's 1 000 load/invoke/unload cycles,
 * the findings service's fairness test. With `loop`, `enrich` never returns (a busy loop the
 * runner's deadline stops). With `counter`, `enrich` keeps state in the two places a core
 * instance has it and answers it as the tag `soak: m<M>g<G>p<P>`: M = a counter in linear
 * memory (address 2000, no data segment sets it), G = a mutable global, both incremented per
 * call, and P = the memory's size in pages before the call; `grow` is `counter` that also grows
 * the memory by one page per call. A fresh instance answers `m1g1p1`; anything else on a new
 * event is state passed on from an earlier one (the instance-pool isolation tests).
 *
 *   node build-tiny.mjs <plugin.wit> <out.wasm> [tags|loop|counter|grow]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { componentEmbed, componentNew, parse } from '@bytecodealliance/jco';

// Canonical ABI of `enrich(ctx, finding) -> result<list<tag>, string>`: the arguments do not
// fit in 16 flat values, so the host writes them into memory (through cabi_realloc) and passes
// one pointer; the result is returned as a pointer to [discriminant u8, pad, list ptr, list len].
// At 1024: ok, list at 1100 of length 1. At 1100: one tag (key ptr/len, value ptr/len). At
// 1200: the bytes of "soak" and "ok".
const [witPath, outPath, mode = 'tags'] = process.argv.slice(2);
if (!witPath || !outPath || !['tags', 'loop', 'counter', 'grow'].includes(mode)) {
  throw new Error('usage: node build-tiny.mjs <plugin.wit> <out.wasm> [tags|loop|counter|grow]');
}
const stateful = mode === 'counter' || mode === 'grow';

// `counter`/`grow`: the tag's value is the 6 bytes at 1300 ("m1g1p1"), written by enrich.
const counting = `
    (i32.store (i32.const 2000) (i32.add (i32.load (i32.const 2000)) (i32.const 1)))
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (i32.store8 (i32.const 1300) (i32.const 109))
    (i32.store8 (i32.const 1301) (i32.add (i32.const 48) (i32.load (i32.const 2000))))
    (i32.store8 (i32.const 1302) (i32.const 103))
    (i32.store8 (i32.const 1303) (i32.add (i32.const 48) (global.get $calls)))
    (i32.store8 (i32.const 1304) (i32.const 112))
    (i32.store8 (i32.const 1305) (i32.add (i32.const 48) (memory.size)))
    ${mode === 'grow' ? '(drop (memory.grow (i32.const 1)))' : ''}
    (i32.const 1024)`;
const body =
  mode === 'loop'
    ? '(loop $spin (br $spin)) (unreachable)'
    : stateful
      ? counting
      : '(i32.const 1024)';

const wat = `(module
  (memory (export "memory") 1)
  (global $bump (mut i32) (i32.const 4096))
  (global $calls (mut i32) (i32.const 0))
  (data (i32.const 1024) "\\00\\00\\00\\00\\4c\\04\\00\\00\\01\\00\\00\\00")
  (data (i32.const 1100) "\\b0\\04\\00\\00\\04\\00\\00\\00${
    stateful ? '\\14\\05\\00\\00\\06' : '\\b4\\04\\00\\00\\02'
  }\\00\\00\\00")
  (data (i32.const 1200) "soakok")
  (func (export "cabi_realloc")
    (param $old i32) (param $oldsz i32) (param $align i32) (param $new i32) (result i32)
    (local $p i32)
    (local.set $p (i32.and (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
                           (i32.xor (i32.sub (local.get $align) (i32.const 1)) (i32.const -1))))
    (global.set $bump (i32.add (local.get $p) (local.get $new)))
    (block $ok (loop $grow
      (br_if $ok (i32.le_u (global.get $bump) (i32.shl (memory.size) (i32.const 16))))
      (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
      (br $grow)))
    (if (local.get $old) (then (memory.copy (local.get $p) (local.get $old)
        (select (local.get $oldsz) (local.get $new) (i32.lt_u (local.get $oldsz) (local.get $new))))))
    (local.get $p))
  (func (export "findsvc:plugin/finding-enricher@0.1.0#enrich") (param i32) (result i32)
    ${body})
)`;

const core = await parse(wat);
const embedded = await componentEmbed({
  binary: core,
  witSource: readFileSync(witPath, 'utf8'),
  world: 'enricher',
});
writeFileSync(outPath, await componentNew(embedded));
