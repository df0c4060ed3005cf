"""Install the pinned harness packages into a cache outside the clone, once."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
PINS = HERE / "pins.toml"


@dataclass(frozen=True)
class Pin:
    harness: str
    package: str
    version: str

    @property
    def label(self) -> str:
        return f"{self.harness}@{self.version}"


def pins(path: Path | None = None) -> dict[str, Pin]:
    data = tomllib.loads((path or PINS).read_text(encoding="utf-8"))
    return {k: Pin(k, v["package"], v["version"]) for k, v in data.items()}


def cache_root() -> Path:
    """``$SKILL_LSP_CACHE/harness`` (the cache the editor tests share), else ``~/.cache/skill-lsp/harness``."""
    env = os.environ.get("SKILL_LSP_CACHE")
    return (Path(env) if env else Path.home() / ".cache" / "skill-lsp") / "harness"


def install_dir(pin: Pin) -> Path:
    return cache_root() / f"{pin.harness}@{pin.version}"


def ensure(pin: Pin) -> Path:
    """The install folder of ``pin``; npm runs only when the marker is missing."""
    where = install_dir(pin)
    marker = where / ".installed"
    if marker.exists():
        return where
    where.mkdir(parents=True, exist_ok=True)
    (where / "package.json").write_text('{"name": "capture-cache", "private": true}\n', encoding="utf-8")
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", f"{pin.package}@{pin.version}"],
        cwd=where, check=True,
    )
    marker.write_text(f"{pin.package}@{pin.version}\n", encoding="utf-8")
    return where
