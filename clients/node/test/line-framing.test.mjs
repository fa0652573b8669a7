import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineDecoder, encodeLine } from '../index.js';

function decodeAll(chunks) {
  const decoder = new LineDecoder();
  const lines = chunks.flatMap((chunk) => decoder.decode(Buffer.from(chunk)));
  return [...lines, ...decoder.end()];
}

test('decode_linesSplitAcrossChunks_areJoined', () => {
  assert.deepEqual(decodeAll(['{"a":', '1}\n{"b"', ':2}\n']), ['{"a":1}', '{"b":2}']);
});

test('decode_fedByteByByte_yieldsTheSameLines', () => {
  const bytes = Buffer.from('{"x":"caf\u00e9 \u20ac \u{1F600}"}\r\n\n  \n[1,2]\n');
  const decoder = new LineDecoder();
  const lines = [];
  for (const byte of bytes) lines.push(...decoder.decode(Buffer.from([byte])));
  assert.deepEqual(lines, ['{"x":"caf\u00e9 \u20ac \u{1F600}"}', '[1,2]']);
  assert.equal(decoder.bufferedBytes, 0);
});

test('decode_trailingCarriageReturnAndBlankLines_areDropped', () => {
  assert.deepEqual(decodeAll(['{}\r\n\r\n \t \n{}\n']), ['{}', '{}']);
});

test('end_lastLineWithoutNewline_isTaken', () => {
  assert.deepEqual(decodeAll(['{}\n{"last":true}']), ['{}', '{"last":true}']);
});

test('decode_manyLinesInOneChunk_allReturnedInOrder', () => {
  const text = Array.from({ length: 1000 }, (_, i) => `{"i":${i}}\n`).join('');
  assert.deepEqual(decodeAll([text]).map((line) => JSON.parse(line).i), Array.from({ length: 1000 }, (_, i) => i));
});

test('decode_multiMegabyteLineInSmallChunks_isLinear', () => {
  const line = Buffer.from(`"${'x'.repeat(8 * 1024 * 1024)}"\n`);
  const decoder = new LineDecoder();
  const started = performance.now();
  const lines = [];
  for (let offset = 0; offset < line.length; offset += 1024) lines.push(...decoder.decode(line.subarray(offset, offset + 1024)));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].length, 8 * 1024 * 1024 + 2);
  assert.ok(performance.now() - started < 2000, 'an 8 MiB line in 1 KiB chunks should take well under 2 s');
});

test('encodeLine_stringWithNewlines_staysOneLine', () => {
  const encoded = encodeLine({ text: 'a\nb\r\nc\u2028' });
  assert.equal(encoded.indexOf('\n'), encoded.length - 1);
  assert.deepEqual(JSON.parse(encoded), { text: 'a\nb\r\nc\u2028' });
});
