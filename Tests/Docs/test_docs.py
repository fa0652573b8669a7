"""Every link and every command or request in README.md and docs/ is checked here.

- Relative links resolve to a file or directory of the repository, and a `#fragment` to a heading
  of the target page (GitHub's anchors). bench/README.md and bench/HISTORY.md are checked for
  links too. Links to other sites are not fetched (no network) and are reported as skipped.
- `json` blocks parse; a JSON-RPC message must be a valid request or response; an MCP host
  configuration must name a command and string arguments.
- `sh` blocks: each command (continuation lines joined) either runs here or is skipped with a
  reason listed in NOT_RUN below; a command no rule knows fails, so none is skipped silently.
  Commands that pipe requests into `shop-rpc` or `hello-rpc` run against the debug build that
  scripts/test made (`.build/release/X` and `swift run -c release X` are mapped to `.build/debug/X`),
  and every reply must be a valid JSON-RPC response, one per request id; a `# → {...}` line after a
  command must match its reply's id and result or error code. `shop-rpc import` and `export`
  commands run against the same build; an import's stdout must be its JSON summary, equal to the
  `# → {...}` line when there is one. A `--db /tmp/NAME` store is a file in a directory of the
  block's own, shared by the block's commands in order (an import, then a server on its store).
  `swift build` commands are not run again, but the products they name must exist.
- `python` and `js` blocks run from the checkout (the Node client imported from
  `./clients/node/index.js` where a page imports the package `shop-rpc-client`).
- A block preceded by `<!-- docs-test: skip REASON -->` is skipped with that reason.
- docs/library.md's public API listing (RPCServer) and docs/shop-library.md's (ShopAPI) are what
  scripts/public-api prints for each module, and every `X.swift` a page names in code spans exists
  in the repository (unless the page marks it "(new)").
"""
import json
import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK_ONLY_PAGES = [ROOT / "bench" / "README.md", ROOT / "bench" / "HISTORY.md"]
BUILD = ROOT / ".build" / "debug"

# Commands that do not run in this test, by their first word (after VAR=value prefixes), and why.
# A command matching none of these and none of the runnable shapes fails the test.
NOT_RUN = {
    "scripts/test": "the whole suite, which runs this test",
    "scripts/fuzz": "minutes of libFuzzer; scripts/test runs every target for 10 s itself",
    "scripts/stress-sessions": "hundreds of real sessions; the integration tests run a smaller version (ShortSessionStressTests)",
    "scripts/package": "writes the #23 packages into dist/, which this test does not build",
    "pip": "installs the packages from scripts/package (#23)",
    "npm": "installs the packages from scripts/package (#23)",
    "npx": "runs the command the #23 package installs",
    "scripts/with-postgres": "needs a PostgreSQL cluster; scripts/test runs the Swift suite under it",
    "bench/run": "a benchmark: release builds and minutes of load",
    "bench/instructions": "a benchmark: minutes under callgrind",
    "bench/postgres-orders": "a benchmark on a PostgreSQL cluster",
    "bench/catalog-floor": "a benchmark",
    "bench/library-floor": "a benchmark",
    "swift test": "runs (part of) the Swift suite, which scripts/test runs whole",
    "python3 -m pytest": "runs a client suite that scripts/test runs",
    "node --test": "runs the Node client suite that scripts/test runs",
    "scripts/generate-clients": "rewrites the committed client files; its --check is a part of scripts/test of its own (generated-clients)",
}
NEEDS_POSTGRES = "needs a PostgreSQL server"
NEEDS_INVENTORY = "needs the inventory service it names (not on this machine's loopback)"
NEEDS_PACKAGE = "needs the shop-rpc command that the #23 packages install"


# MARK: - Reading the pages

def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set:
    found, seen, fenced = set(), {}, False
    for line in page.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^#{1,6} (.*)", line)):
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def blocks(page: Path):
    """(line, language, text, skip reason or None) of every fenced block, also those indented in a list."""
    lines = page.read_text().splitlines()
    index = 0
    while index < len(lines):
        if lines[index].lstrip().startswith("```"):
            indent = len(lines[index]) - len(lines[index].lstrip())
            language = lines[index].strip()[3:].strip()
            start = index
            marker = re.match(r"\s*<!-- docs-test: skip (.*) -->", lines[index - 1]) if index else None
            index += 1
            body = []
            while not lines[index].lstrip().startswith("```"):
                body.append(lines[index][indent:])
                index += 1
            yield start + 1, language, "\n".join(body), marker.group(1) if marker else None
        index += 1


def links(page: Path):
    """(line, target) of every inline link outside code."""
    fenced = False
    for number, line in enumerate(page.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
            yield number, target


def commands(text: str):
    """(command, expected reply or None) of a shell block: continuations joined, comments dropped."""
    result, pending = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("# →") and result:
            result[-1] = (result[-1][0], stripped[3:].strip())
            continue
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        result.append((pending + stripped, None))
        pending = ""
    return result


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


LINK_CASES = [pytest.param(page, number, target, id=f"{name(page)}:{number}:{target}")
              for page in PAGES + LINK_ONLY_PAGES for number, target in links(page)]
BLOCK_CASES = [pytest.param(page, number, language, text, skip, id=f"{name(page)}:{number}:{language or 'text'}")
               for page in PAGES for number, language, text, skip in blocks(page) if language == "json"
               or language in ("python", "js")]
COMMAND_CASES = [pytest.param(page, number, command, expected, skip, id=f"{name(page)}:{number}:{command[:60]}")
                 for page in PAGES for number, language, text, skip in blocks(page) if language == "sh"
                 for command, expected in commands(text)]

# A directory per block, for its commands' `--db /tmp/NAME` stores.
BLOCK_DIRECTORIES = {}


def with_block_stores(page, number, command):
    """`command` with each `--db /tmp/NAME` moved into the block's own directory."""
    directory = BLOCK_DIRECTORIES.setdefault((page, number), tempfile.mkdtemp(prefix="docs-block-"))
    return re.sub(r"--db /tmp/(\S+)", lambda match: f"--db {directory}/{match.group(1)}", command)


# MARK: - Links

@pytest.mark.parametrize("page, number, target", LINK_CASES)
def test_link_resolves(page, number, target):
    if re.match(r"^[a-z]+:", target):
        pytest.skip(f"{target}: another site, not fetched (no network here)")
    path, _, fragment = target.partition("#")
    resolved = (page.parent / path).resolve() if path else page
    assert resolved.exists(), f"{name(page)}:{number}: {target} does not exist"
    if fragment:
        assert resolved.suffix == ".md", f"{name(page)}:{number}: an anchor into a file that is not Markdown"
        assert fragment in anchors(resolved), f"{name(page)}:{number}: no heading #{fragment} in {name(resolved)}"


def test_everyDocsPage_isLinkedFromTheReadme():
    readme = (ROOT / "README.md").read_text()
    unlinked = [name(page) for page in PAGES[1:] if f"]({name(page)})" not in readme]
    assert unlinked == []


def test_readme_isAtMost150Lines():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


# MARK: - JSON-RPC

def check_message(message, *, response: bool):
    assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", message
    if response:
        assert "id" in message, message
        assert ("result" in message) != ("error" in message), message
        if "error" in message:
            assert isinstance(message["error"].get("code"), int) and isinstance(message["error"].get("message"), str), message
    else:
        assert isinstance(message.get("method"), str), message
        assert "params" not in message or isinstance(message["params"], (dict, list)), message
        assert "id" not in message or isinstance(message["id"], (int, str)) or message["id"] is None, message


def check_json_document(value):
    if isinstance(value, list):  # a batch
        for element in value:
            check_json_document(element)
    elif isinstance(value, dict) and "jsonrpc" in value:
        check_message(value, response="method" not in value)
    elif isinstance(value, dict) and "mcpServers" in value:
        for server in value["mcpServers"].values():
            assert isinstance(server["command"], str) and server["command"]
            assert all(isinstance(argument, str) for argument in server.get("args", []))


def replies_in(output: bytes):
    """The messages of a server's output, NDJSON or LSP-framed."""
    if output.startswith(b"Content-Length:"):
        messages = []
        while output:
            header, _, rest = output.partition(b"\r\n\r\n")
            length = int(re.search(rb"Content-Length: *(\d+)", header).group(1))
            messages.append(json.loads(rest[:length]))
            output = rest[length:]
        return messages
    return [json.loads(line) for line in output.decode().splitlines() if line.strip()]


def request_ids(command: str):
    """The ids of the requests a command sends: from its echoed or printed JSON, or its input file."""
    if match := re.search(r"<\s*(\S+)\s*$", command):
        texts = (ROOT / match.group(1)).read_text().splitlines()
    else:
        texts = re.findall(r"'(\{.*?\})'\s*\|", command) or re.findall(r"(\{.*\})'\s*\|", command)
    ids = []
    for text in texts:
        if text.strip():
            message = json.loads(text)
            check_message(message, response=False)
            if "id" in message:
                ids.append(message["id"])
    return ids


# MARK: - Blocks

@pytest.mark.parametrize("page, number, language, text, skip", BLOCK_CASES)
def test_block(page, number, language, text, skip, tmp_path):
    if skip:
        pytest.skip(skip)
    if language == "json":
        check_json_document(json.loads(text))
        return
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), SHOP_RPC_BIN=str(BUILD / "shop-rpc"),
               PYTHONPATH=str(ROOT / "clients" / "python"))
    if language == "python":
        run = subprocess.run(["python3", "-c", text], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    else:
        source = text.replace("'shop-rpc-client'", "'./clients/node/index.js'")
        run = subprocess.run(["node", "--input-type=module", "-e", source], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip(), "the example printed nothing"


# MARK: - Commands

def words_after_environment(command: str):
    words = shlex.split(command, comments=False)
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words = words[1:]
    return words


def not_run_reason(command: str, words):
    if "postgres" in command:
        return NEEDS_POSTGRES
    if "--inventory-url" in command and "127.0.0.1" not in command:
        return NEEDS_INVENTORY
    if words and words[0] == "shop-rpc":
        return NEEDS_PACKAGE
    for prefix, reason in NOT_RUN.items():
        if " ".join(words).startswith(prefix):
            return reason
    return None


SERVER = re.compile(r"(?:\.build/(?:release|debug)/|swift run (?:-c release )?)(shop-rpc|hello-rpc)\b")


@pytest.mark.parametrize("page, number, command, expected, skip", COMMAND_CASES)
def test_command(page, number, command, expected, skip, tmp_path):
    where = f"{name(page)}:{number}: {command}"
    if skip:
        pytest.skip(skip)
    words = words_after_environment(command)
    if (reason := not_run_reason(command, words)) is not None:
        script = ROOT / words[0]
        if "/" in words[0] and not words[0].startswith("."):
            assert script.is_file() and os.access(script, os.X_OK), f"{where}: {words[0]} is not an executable script"
        pytest.skip(reason)
    if words[:2] == ["swift", "build"]:
        products = re.findall(r'\.(?:executable|library)\(name: "([^"]+)"', (ROOT / "Package.swift").read_text())
        for product in re.findall(r"--product (\S+)", command):
            assert product in products, f"{where}: no product {product}"
        return
    command = with_block_stores(page, number, command)
    server = SERVER.search(command)
    catalog_command = re.search(r"\bshop-rpc (import|export)\b", command) if server and "|" not in command else None
    if catalog_command:
        binary = BUILD / server.group(1)
        run = subprocess.run(["bash", "-o", "pipefail", "-c", SERVER.sub(str(binary), command)], cwd=ROOT,
                             env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)), capture_output=True, timeout=60)
        assert run.returncode == 0, f"{where}: exit {run.returncode}: {run.stderr.decode()[-2000:]}"
        if catalog_command.group(1) == "import":
            summary = json.loads(run.stdout)
            assert sorted(summary) == sorted(["rows", "created", "updated", "unchanged", "archived", "stockSet"]), where
            if expected:
                assert summary == json.loads(expected), f"{where}: {summary}"
        return
    assert server and ("|" in command or "<" in command), \
        f"{where}: no rule runs or skips this command (add one to Tests/Docs/test_docs.py, or a docs-test skip marker)"
    binary = BUILD / server.group(1)
    assert binary.is_file(), f"{binary} is missing: build first (scripts/test does)"
    runnable = SERVER.sub(str(binary), command)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    run = subprocess.run(["bash", "-o", "pipefail", "-c", runnable], cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert run.returncode == 0, f"{where}: exit {run.returncode}: {run.stderr.decode()[-2000:]}"
    replies = replies_in(run.stdout)
    for reply in replies:
        check_message(reply, response=True)
    assert sorted(map(str, (reply["id"] for reply in replies))) == sorted(map(str, request_ids(command))), where
    if expected:
        expected_id = json.loads(re.search(r'"id":\s*("[^"]*"|\d+)', expected).group(1))
        reply = next(reply for reply in replies if reply["id"] == expected_id)
        if code := re.search(r'"code":\s*(-?\d+)', expected):
            assert reply.get("error", {}).get("code") == int(code.group(1)), f"{where}: {reply}"
            if message := re.search(r'"message":\s*"([^"]*)"', expected):
                assert reply["error"]["message"] == message.group(1), f"{where}: {reply}"
        else:
            assert json.loads(re.search(r'"result":\s*(\{.*?\})\}', expected).group(1)) == reply.get("result"), f"{where}: {reply}"


# MARK: - Named code

@pytest.mark.parametrize("page_name, module, marker", [
    ("library.md", "RPCServer", "<!-- public-api -->"),
    ("shop-library.md", "ShopAPI", "<!-- public-api ShopAPI -->"),
])
def test_libraryPages_publicApiListing_isWhatScriptsPublicApiPrints(page_name, module, marker):
    page = (ROOT / "docs" / page_name).read_text()
    listing = page.split(marker + "\n```\n", 1)[1].split("```", 1)[0]
    run = subprocess.run([str(ROOT / "scripts" / "public-api"), module], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    if "grepping the sources instead" in run.stderr:
        pytest.skip("swift-symbolgraph-extract is missing, so scripts/public-api cannot list the API")
    assert listing == run.stdout


def test_everySwiftFileNamedInThePages_exists():
    files = {str(path.relative_to(ROOT)) for path in ROOT.rglob("*.swift") if ".build" not in path.parts}
    missing = []
    for page in PAGES:
        for named in set(re.findall(r"`([\w/+.-]+\.swift)`(?! \(new\))", page.read_text())):
            if not any(file == named or file.endswith("/" + named) for file in files):
                missing.append(f"{name(page)}: {named}")
    assert missing == []
