"""The RPCServer reference (scripts/docs) builds without a warning, and documents every public type.

The list of public types comes from the compiler's own symbol graph of the module (the one
scripts/docs hands to docc), never from a hand-written list, so a new public type that the archive
does not show fails here. A second build, of a copy of the catalog with broken links, shows that
the warning check can fail.

Needs the debug build of RPCServer (scripts/test builds it first) and the toolchain's docc;
about 3 s per docc run on 2 cores.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "Sources" / "RPCServer" / "RPCServer.docc"
TYPE_KINDS = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias", "swift.actor"}


def build_docs(out: Path, catalog: Path = CATALOG) -> subprocess.CompletedProcess:
    env = dict(os.environ, DOCS_OUT=str(out), DOCS_CATALOG=str(catalog))
    return subprocess.run([str(ROOT / "scripts" / "docs")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def warnings_of(out: Path, run: subprocess.CompletedProcess) -> list:
    """Every diagnostic docc reported: its diagnostics file, and any warning or error on stderr."""
    diagnostics = json.loads((out / "diagnostics.json").read_text())["diagnostics"]
    found = [f"{d.get('severity')}: {d.get('summary')}" for d in diagnostics]
    found += [line for line in run.stderr.splitlines() if "warning:" in line or "error:" in line]
    return found


def public_types(graph_file: Path) -> dict:
    """Every public type declared in RPCServer, as the symbol graph lists it: precise id -> path."""
    graph = json.loads(graph_file.read_text())
    return {
        symbol["identifier"]["precise"]: tuple(symbol["pathComponents"])
        for symbol in graph["symbols"]
        if symbol["kind"]["identifier"] in TYPE_KINDS and "::SYNTHESIZED::" not in symbol["identifier"]["precise"]
    }


def documented_symbols(archive: Path) -> set:
    """The precise id of every symbol that has a page in the archive."""
    ids = set()
    for page in (archive / "data" / "documentation").rglob("*.json"):
        external = json.loads(page.read_text()).get("metadata", {}).get("externalID")
        if external:
            ids.add(external)
    return ids


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    run = build_docs(out)
    assert run.returncode == 0, run.stderr
    return out, run


def test_scriptsDocs_buildsTheArchive_withoutAnyWarning(built):
    out, run = built
    assert (out / "RPCServer.doccarchive" / "index.html").is_file()
    assert warnings_of(out, run) == []


def test_archive_hasAPageForEveryPublicTypeOfTheSymbolGraph(built):
    out, _ = built
    types = public_types(out / "symbol-graphs" / "RPCServer.symbols.json")
    assert len(types) >= 20, types  # the module's public surface, not an empty graph
    pages = documented_symbols(out / "RPCServer.doccarchive")
    missing = sorted(".".join(path) for precise, path in types.items() if precise not in pages)
    assert missing == []


def test_landingPage_curatesEveryTopLevelType_andTheFirstServerArticle(built):
    out, _ = built
    landing = json.loads((out / "RPCServer.doccarchive" / "data" / "documentation" / "rpcserver.json").read_text())
    curated = {landing["references"][ref]["title"]
               for section in landing["topicSections"] for ref in section["identifiers"]}
    top_level = {path[0] for path in public_types(out / "symbol-graphs" / "RPCServer.symbols.json").values() if len(path) == 1}
    assert top_level - curated == set()
    assert "Writing a first server" in curated
    assert (out / "RPCServer.doccarchive" / "data" / "documentation" / "rpcserver" / "writingafirstserver.json").is_file()


def test_brokenLinksInTheCatalog_areReportedAsWarnings(tmp_path):
    catalog = tmp_path / "Broken.docc"
    shutil.copytree(CATALOG, catalog)
    with open(catalog / "RPCServer.md", "a") as page:
        page.write("\nSee ``NoSuchType`` and <doc:NoSuchArticle>.\n")
    out = tmp_path / "out"
    run = build_docs(out, catalog)
    assert run.returncode == 0, run.stderr
    reported = " ".join(warnings_of(out, run))
    assert "NoSuchType" in reported and "NoSuchArticle" in reported
