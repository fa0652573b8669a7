// One Node caller of bench/shims, in a process of its own, driven by bench/shims.py over stdin/stdout.
//
//   node bench/shims_node.mjs VARIANT --binary BIN [--warmup N]
//
// As bench/shims_python.py: its own `BIN --db :memory:` server, `--warmup` sequential calls of
// catalog.get {"sku": "SKU-0001"}, then `ready` and one answer line per command line: `seq N` (N
// calls one at a time: a JSON list of ns each) or `pipe N K` (N calls with K in flight, K async
// loops under Promise.all: the seconds they took). Variants:
// - `raw`: `child_process.spawn`, a `readline` interface on its stdout, `JSON.parse`, replies
//   matched by id (the floor for the Node shim);
// - `shim`: `ShopClient.spawn(...).catalogGet(sku)`.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ShopClient } from '../clients/node/index.js';

const METHOD = 'catalog.get';
const PARAMS = { sku: 'SKU-0001' };

function check(result) {
  if (result?.sku !== PARAMS.sku) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}

async function sequential(call, calls) {
  const samples = [];
  for (let i = 0; i < calls; i += 1) {
    const started = process.hrtime.bigint();
    const result = await call();
    samples.push(Number(process.hrtime.bigint() - started));
    check(result);
  }
  return samples;
}

async function pipelined(call, total, inflight) {
  let remaining = total;
  const worker = async () => {
    while (remaining > 0) {
      remaining -= 1;
      check(await call());
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inflight }, worker));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The raw loop: `call()` and a `close()` that ends the server. */
function rawCaller(binary) {
  const child = spawn(binary, ['--db', ':memory:'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let nextId = 1;
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const reply = JSON.parse(line);
    const resolve = waiting.get(reply.id);
    waiting.delete(reply.id);
    resolve(reply.result);
  });
  return {
    call: () =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: METHOD, params: PARAMS })}\n`);
      }),
    close: () => {
      const exited = new Promise((resolve) => child.once('close', resolve));
      child.stdin.end();
      return exited;
    },
  };
}

function shimCaller(binary) {
  const shop = ShopClient.spawn({ bin: binary, args: ['--db', ':memory:'] });
  return { call: () => shop.catalogGet(PARAMS.sku), close: () => shop.close() };
}

const [variant, ...rest] = process.argv.slice(2);
const options = { warmup: 500 };
for (let i = 0; i < rest.length; i += 2) options[rest[i].replace(/^--/, '')] = rest[i + 1];
const make = { raw: rawCaller, shim: shimCaller }[variant];
if (!make || !options.binary) throw new Error('usage: shims_node.mjs raw|shim --binary BIN [--warmup N]');
const { call, close } = make(options.binary);
for (let i = 0; i < Number(options.warmup); i += 1) check(await call());
console.log('ready');
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const [command, n, k] = line.split(/\s+/);
  const value = command === 'seq' ? await sequential(call, Number(n)) : await pipelined(call, Number(n), Number(k));
  console.log(JSON.stringify(value));
}
await close();
