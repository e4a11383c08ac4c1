"""What a run was measured on: the machine, the software and the commit (stored in run.json)."""

from __future__ import annotations

import os
import platform
import subprocess
from importlib import metadata

from .suite import REPOSITORY


def _first_match(path: str, key: str) -> str:
    try:
        with open(path, encoding="utf-8") as fp:
            for line in fp:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPOSITORY, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPOSITORY, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def describe() -> dict[str, str]:
    memory_kb = _first_match("/proc/meminfo", "MemTotal").split()
    memory = f"{int(memory_kb[0]) / 1024**2:.1f} GiB" if memory_kb and memory_kb[0].isdigit() else "unknown"
    return {
        "cpu": _first_match("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cores": str(os.cpu_count() or "unknown"),
        "memory": memory,
        "system": platform.platform(),
        "python": platform.python_version(),
        "pyqbf": _version("pyqbf"),
        "commit": _commit(),
    }
