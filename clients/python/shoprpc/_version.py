"""The version of this package: the repository's VERSION file when used from the source tree, else
the installed distribution's. The wheel built by scripts/package replaces this file with the
version itself."""

from pathlib import Path


def _read_version() -> str:
    repository_version = Path(__file__).resolve().parents[3] / "VERSION"
    if repository_version.is_file():
        return repository_version.read_text().splitlines()[0].strip()
    try:
        from importlib.metadata import version

        return version("shoprpc")
    except Exception:  # not installed either (copied by hand)
        return "0+unknown"


__version__ = _read_version()
