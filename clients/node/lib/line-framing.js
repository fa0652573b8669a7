// NDJSON framing: one JSON text per line, `\n`-terminated (protocol.md, section 1).

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into lines without a length limit.
 *
 * Each byte is scanned exactly once: a chunk is searched for `\n` from a moving offset, and the
 * bytes of a line that spans chunks are kept as a list of slices and concatenated once, when the
 * line's `\n` arrives. A 50 MB line therefore costs O(50 MB), never a re-scan per chunk.
 *
 * A trailing `\r` is dropped, blank (all-whitespace) lines are skipped, and UTF-8 is decoded per
 * complete line, so a multi-byte character split across chunks is decoded intact.
 */
export class LineDecoder {
  /** Slices of the current, still unterminated line, in arrival order. */
  #partial = [];
  #partialBytes = 0;

  /**
   * Feeds one chunk.
   * @param {Buffer} chunk
   * @returns {string[]} the lines completed by this chunk, in order
   */
  decode(chunk) {
    const lines = [];
    let offset = 0;
    for (let newline = chunk.indexOf(LF, offset); newline !== -1; newline = chunk.indexOf(LF, offset)) {
      this.#complete(chunk.subarray(offset, newline), lines);
      offset = newline + 1;
    }
    if (offset < chunk.length) {
      const rest = chunk.subarray(offset);
      this.#partial.push(rest);
      this.#partialBytes += rest.length;
    }
    return lines;
  }

  /**
   * Ends the stream: the last line may lack its `\n`.
   * @returns {string[]} that line, if it is not blank
   */
  end() {
    const lines = [];
    if (this.#partialBytes > 0) this.#complete(Buffer.alloc(0), lines);
    this.#partial = [];
    this.#partialBytes = 0;
    return lines;
  }

  /** Bytes held for the unterminated line (for tests and diagnostics). */
  get bufferedBytes() {
    return this.#partialBytes;
  }

  #complete(tail, lines) {
    let line = tail;
    if (this.#partial.length > 0) {
      this.#partial.push(tail);
      line = Buffer.concat(this.#partial, this.#partialBytes + tail.length);
      this.#partial = [];
      this.#partialBytes = 0;
    }
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end -= 1;
    if (isBlank(line, end)) return;
    lines.push(line.toString('utf8', 0, end));
  }
}

/** JSON whitespace only (RFC 8259): space, tab, CR, LF. */
function isBlank(bytes, end) {
  for (let i = 0; i < end; i += 1) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR && b !== LF) return false;
  }
  return true;
}

/**
 * Encodes one message as one line. `JSON.stringify` escapes every control character inside
 * strings, so the result never holds a raw newline before its terminator.
 * @param {unknown} message
 * @returns {string}
 */
export function encodeLine(message) {
  return `${JSON.stringify(message)}\n`;
}
