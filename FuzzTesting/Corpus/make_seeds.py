#!/usr/bin/env python3
"""Regenerates the seed corpus of every fuzz target from protocol.md's executable examples,
clients/test-vectors.json and a few hostile messages. Standard library only. Run from anywhere:
    python3 FuzzTesting/Corpus/make_seeds.py
Seeds are named by content hash, so rerunning adds nothing twice; the fuzzers' own finds go to a
git-ignored working corpus (see scripts/fuzz), not here."""
import hashlib, json, pathlib, re

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent

def requests_from_protocol():
    """Every `-->` line of protocol.md, grouped by example block."""
    blocks, current = [], None
    for line in (root / "protocol.md").read_text().splitlines():
        if line.startswith("```jsonrpc-example"):
            current = []
        elif line.startswith("```") and current is not None:
            blocks.append(current)
            current = None
        elif current is not None and line.startswith("--> "):
            current.append(line[4:])
    return blocks

def requests_from_vectors():
    vectors = json.loads((root / "clients" / "test-vectors.json").read_text())["vectors"]
    lines = []
    for number, vector in enumerate(vectors, start=1):
        message = {"jsonrpc": "2.0", "id": number, "method": vector["method"]}
        if vector.get("params") is not None:
            message["params"] = vector["params"]
        lines.append(json.dumps(message, separators=(",", ":")))
    return lines

HOSTILE = [
    '{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":{"deadlineMs":1e19}}}',
    '{"jsonrpc":"2.0","id":2,"method":"catalog.list","params":{"_meta":{"deadlineMs":9223372036854775807}}}',
    '{"jsonrpc":"2.0","id":3,"method":"catalog.list","params":{"_meta":{"deadlineMs":-1}}}',
    '{"jsonrpc":"2.0","id":4,"method":"catalog.list","params":{"_meta":{"deadlineMs":0.0001,"progressToken":"p"}}}',
    '{"jsonrpc":"2.0","id":5,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":{"progressToken":{"x":1}}}}',
    '{"jsonrpc":"2.0","id":6,"method":"catalog.get","params":{"sku":"SKU-0001","_meta":7}}',
    '[{"jsonrpc":"2.0","id":7,"method":"catalog.list","params":{}},{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7.0,"method":"rpc.discover"}]',
    '[{"jsonrpc":"2.0","id":"d","method":"cart.add","params":{"cartId":"c","sku":"SKU-0002","quantity":1}},{"jsonrpc":"2.0","id":"d","method":"$/cancelRequest","params":{"id":"d"}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"d"}}]',
    '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    '{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}',
    '{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}',
    '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":[1],"method":"ping"}',
    '{"jsonrpc":"2.0","id":"\\ud83d\\ude00","method":"rpc.discover"}',
    '{"jsonrpc":"2.0","id":1,"method":"cart.add","params":{"cartId":"","sku":"SKU-0002","quantity":9223372036854775807}}',
    '{"jsonrpc":"2.0","id":2,"method":"catalog.list","params":{"limit":1e300,"cursor":""}}',
    '{"jsonrpc":"2.0","id":3,"method":"orders.list","params":{"cartId":"c","limit":-1,"cursor":"cDE6"}}',
    '{"jsonrpc":"2.0","id":4,"method":"catalog.search","params":{"query":"\\"*OR-NEAR(","limit":200}}',
    '{"jsonrpc":"2.0","id":5,"method":"inventory.check","params":{"skus":[]}}',
    '{"jsonrpc":"2.0","id":6,"method":"orders.get","params":["o-1"]}',
    '[{"jsonrpc":"2.0","id":7,"method":"tools/list","params":null},{"jsonrpc":"2.0","method":"cart.add","params":null},{"jsonrpc":"2.0","id":8,"method":"rpc.stats","params":false},{"jsonrpc":"2.0","method":"ping","params":0}]',
    # Customers (#43): the operator's orders.list {customer}, and ids holding the key separator U+001F.
    '[{"jsonrpc":"2.0","id":9,"method":"cart.add","params":{"cartId":"alice\\u001fc","sku":"SKU-0002","quantity":1,"_meta":{"customer":"alice"}}},{"jsonrpc":"2.0","id":10,"method":"orders.place","params":{"cartId":"alice\\u001fc","idempotencyKey":"\\u001fk"}},{"jsonrpc":"2.0","id":11,"method":"orders.list","params":{"customer":"alice","cartId":"\\u001f"}}]',
]

# The integer extremes (issue #40): ±2^63, ±(2^63-1), -2^63 as a float and one past it, 1e19, in
# every integer param of every method (the fuzzer serves every scope, admin included), in _meta and
# as MCP tool arguments. Each method's other params are valid, so the extreme is what gets checked.
EXTREMES = ["9223372036854775808", "-9223372036854775808", "9223372036854775807", "-9223372036854775807",
            "-9.223372036854775808e18", "-9223372036854775809", "1e19"]
INTEGER_PARAMS = [
    ("catalog.list", '{"limit":%s}'),
    ("catalog.search", '{"query":"guide","limit":%s}'),
    ("orders.list", '{"limit":%s}'),
    ("cart.add", '{"cartId":"x","sku":"SKU-0003","quantity":%s}'),
    ("admin.stock.adjust", '{"sku":"SKU-0003","delta":%s,"reason":"other"}'),
    ("admin.stock.set", '{"sku":"SKU-0003","available":%s}'),
    ("admin.stock.set", '{"sku":"SKU-0003","available":5,"expected":%s}'),
    ("admin.products.upsert", '{"products":[{"sku":"SKU-0003","priceCents":%s}]}'),
    ("admin.products.upsert", '{"products":[{"sku":"SKU-0003","stock":%s}]}'),
    ("catalog.get", '{"sku":"SKU-0001","_meta":{"deadlineMs":%s}}'),
    ("catalog.list", '{"_meta":{"progressToken":%s}}'),
    ("admin.stock.adjust", '{"sku":"SKU-0001","delta":1,"reason":"other","_meta":{"deadlineMs":%s,"progressToken":%s}}'),
]
EXTREME_STREAMS = []
for method, params in INTEGER_PARAMS:
    stream = []
    for number, value in enumerate(EXTREMES):
        filled = params % ((value,) * params.count("%s"))
        stream.append('{"jsonrpc":"2.0","id":"x%d","method":"%s","params":%s}' % (number, method, filled))
        stream.append('{"jsonrpc":"2.0","method":"%s","params":%s}' % (method, filled))
        tool = method.replace(".", "_")
        stream.append('{"jsonrpc":"2.0","id":"t%d","method":"tools/call","params":{"name":"%s","arguments":%s}}' % (number, tool, filled))
    EXTREME_STREAMS.append(stream)
ACTORS = ['"=1+1"', '"a\u0000b"', '"\u001b[31m"', '"x\ny"', '"\u202eevil"', '"\u2066x"', '"\u0085"', '"\u007f"']
for number, actor in enumerate(ACTORS):
    EXTREME_STREAMS.append(['{"jsonrpc":"2.0","id":"a%d","method":"admin.stock.adjust","params":{"sku":"SKU-0001","delta":1,"reason":"other","_meta":{"actor":%s}}}' % (number, actor)])

LSP = [
    b'Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}',
    # Two messages back to back (the literals concatenate), the second with bare-LF headers.
    b'Content-Length: 40\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}'
    b'content-length: 2\n\n[]',
    b'Content-Length: 99999999999999999999\r\n\r\n{}',
    b'Content-Length: -1\r\n\r\nContent-Length: 2\r\n\r\n{}',
    b'X-Junk\r\nContent-Length: 2\r\n\r\n{}Content-Length: 10\r\n\r\n{"a":',
]

def write(target, data):
    folder = here / target
    folder.mkdir(exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    (folder / name).write_bytes(data)

blocks = requests_from_protocol()
vectors = requests_from_vectors()
singles = [line for block in blocks for line in block] + vectors + HOSTILE

# FuzzEngine: an NDJSON stream; whole example blocks, every request alone, the vectors in small groups.
for block in blocks:
    write("FuzzEngine", ("\n".join(block) + "\n").encode())
for line in singles:
    write("FuzzEngine", (line + "\n").encode())
for start in range(0, len(vectors), 6):
    write("FuzzEngine", ("\n".join(vectors[start:start + 6]) + "\n").encode())
write("FuzzEngine", ("\n".join(HOSTILE) + "\n").encode())
for stream in EXTREME_STREAMS:
    write("FuzzEngine", ("\n".join(stream) + "\n").encode())
    for line in stream:
        write("FuzzEngine", (line + "\n").encode())

# FuzzJSONParser: each message as one document, plus a few edge documents.
for line in singles:
    write("FuzzJSONParser", line.encode())
for doc in [b'"\\ud800"', b'"\\udc00\\ud800"', b'"\xed\xa0\x80"', b'"\xc0\xaf"', b'[1,]', b'-0.0e-0', b'1E+400',
            b'[' * 129 + b']' * 129, b'"\\uD834\\uDD1E\\u0000\\/"', b'{"a":1,"a":[true,false,null]}', b' \t\r\n0 ']:
    write("FuzzJSONParser", doc)

# FuzzFrameDecoder: three header bytes (framing: 0 auto, 1 NDJSON, 2 LSP; limit: 0 → 1, 1 → 64, 2 → 4096
# bytes; chunking seed), then the stream.
ndjson_stream = ("\n".join(blocks[0]) + "\r\n\n  \n").encode()
for framing in (0, 1):
    for limit in (1, 2):
        write("FuzzFrameDecoder", bytes([framing, limit, 7]) + ndjson_stream)
write("FuzzFrameDecoder", bytes([0, 1, 3]) + b" " * 70 + b"\r\n" + b"x" * 64 + b"\r\n{}")
for framing in (0, 2):
    for stream in LSP:
        write("FuzzFrameDecoder", bytes([framing, 2, 11]) + stream)
        write("FuzzFrameDecoder", bytes([framing, 1, 5]) + stream)
write("FuzzFrameDecoder", bytes([2, 2, 9]) + b"Content-Length: 2\r\n" + b"X: " + b"y" * 8300 + b"\r\n\r\n{}")

# FuzzCSVReader: two header bytes (chunking seed; record limit: 0 → 64 bytes, 1 → 4 KiB, 2 → 1 MiB),
# then the file: catalog files good and broken, and the RFC 4180 corners.
CSV = [
    b"sku,name,description,category,priceCents,currency,stock\nA-1,Mug,\"Big, \"\"blue\"\"\",kitchen,1250,USD,7\nA-2,Cup,,kitchen,0,EUR,0\n",
    b"\xef\xbb\xbfsku,name\r\nA,\"two\r\nlines\"\r\nB,12\" pizza\r\n",
    b"sku,stock\nA,-1\nA,5\n,3\nB,1000000001\nC,x\n",
    b"sku,name,colour\nA,\"open\nB,b,c\n",
    b"\"a\"b,c\nd\re\n\n\"\"\n,\n",
    b"sku,name\nA,\xc3\x28\nB,\xff\n",
    b"sku\n" + b"x" * 80 + b"\n\"" + b"y" * 5000 + b"\"\n",
]
for number, stream in enumerate(CSV):
    for limit in (0, 1, 2):
        write("FuzzCSVReader", bytes([number * 31 % 256, limit]) + stream)
NDJSON = [
    b'{"sku":"A","name":"Mug \\"Big\\"","description":"","category":"kitchen","priceCents":1250,"currency":"USD","stock":7}\n\n{"stock":3,"sku":"B"}\r\n',
    b'{"sku":"a:b{[","name":"x\\":y}"}\n{"sku":"C","x":1,"x":2}\n{"sku":"D","stock":1,"stock":2}\n[1]\n{"sku":"E",}\n',
    b'{"sku":"F","priceCents":12.5}\n{"sku":"G","stock":1e2}\n{"sku":"H","name":null}\n{"sku":"\\u00e9\\u0000"}\n',
]
for number, stream in enumerate(NDJSON):
    write("FuzzCSVReader", bytes([number * 17 % 256, 2]) + stream)
