"""protocol.md's tables of the shop's methods, scopes and errors say what the method table declares.

The declarations (Sources/ShopRPCBinding: ShopMethods.swift, ShopMethodParams.swift,
ShopResults.swift, ShopErrorKind.swift) reach `rpc.discover`; this reads that document from the
debug build, with every scope served, and checks protocol.md against it:
- section 7's method table lists exactly the declared methods, in declaration order, each row
  naming every param (`name?` when optional, `name` without `?` when required), and its result by
  the result type's title or by its members;
- the scopes table puts each method in its declared scope;
- section 3's error table has a row for every error a method declares, with its code and type.
The prose around them stays hand-written.
"""
import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "protocol.md").read_text()
BUILD = ROOT / ".build" / "debug"


@pytest.fixture(scope="module")
def discovery():
    binary = BUILD / "shop-rpc"
    if not binary.exists():
        pytest.skip("the debug build is missing (scripts/test builds it first)")
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}) + "\n"
    run = subprocess.run([str(binary), "--db", ":memory:", "--allow", "read,write,admin"], input=request.encode(),
                         capture_output=True, timeout=60)
    document = json.loads(run.stdout.decode().splitlines()[0])["result"]
    return [method for method in document["methods"] if "x-scope" in method]


def table_rows(header: str, after: str = ""):
    """The rows of the first markdown table whose header line is `header` (after the line `after`), as lists of cells."""
    start = PROTOCOL.index(header + "\n", PROTOCOL.index(after + "\n") if after else 0)
    rows = []
    for line in PROTOCOL[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        rows.append(cells)
    return rows


def test_methodTable_listsTheDeclaredMethods_inOrder(discovery):
    rows = table_rows("| method | params | result |", after="## 7. Shop methods")
    assert [row[0].strip("`") for row in rows] == [method["name"] for method in discovery]


def test_methodTable_namesEveryParam_andWhetherItIsOptional(discovery):
    rows = {row[0].strip("`"): row for row in table_rows("| method | params | result |", after="## 7. Shop methods")}
    for method in discovery:
        cell = rows[method["name"]][1]
        for param in method["params"]:
            name = param["name"]
            optional = re.search(rf"\b{name}\?", cell) is not None
            present = re.search(rf"\b{name}\b", cell) is not None
            assert present, f"{method['name']}: param {name} is not in protocol.md's row: {cell}"
            assert optional == (not param["required"]), \
                f"{method['name']}: {name} is {'optional' if not param['required'] else 'required'}, protocol.md's row says otherwise: {cell}"


def test_methodTable_namesEachResult_byItsTypeOrItsMembers(discovery):
    rows = {row[0].strip("`"): row for row in table_rows("| method | params | result |", after="## 7. Shop methods")}
    for method in discovery:
        schema = method["result"]["schema"]
        cell = rows[method["name"]][2]
        if schema["title"] in cell:
            continue
        missing = [member for member in schema["required"] if not re.search(rf"\b{member}\b", cell)]
        assert not missing, f"{method['name']}: result {schema['title']} is neither named nor spelled out ({missing}): {cell}"


def test_scopesTable_putsEachMethodInItsDeclaredScope(discovery):
    rows = {row[0].strip("`"): set(re.findall(r"`([a-z]+\.[a-zA-Z.]+)`", row[1])) for row in table_rows("| scope | methods |")}
    for method in discovery:
        scope = method["x-scope"]
        assert method["name"] in rows.get(scope, set()), f"{method['name']} is in scope {scope}, not listed there in protocol.md"
    declared = {method["name"] for method in discovery}
    assert set().union(*rows.values()) == declared


def test_errorTable_hasEveryDeclaredError_withItsCodeAndType(discovery):
    rows = {(int(row[0]), row[1].strip("`")) for row in table_rows("| code | `data.type` | meaning | other `data` members |") if row[0].lstrip("-").isdigit()}
    for method in discovery:
        for error in method.get("errors", []):
            assert (error["code"], error["data"]["type"]) in rows, f"{method['name']}: error {error['code']} {error['data']['type']}"
