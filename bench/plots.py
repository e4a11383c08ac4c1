"""PNG plots of a run: a cactus plot of the solves, and compile time / size against board side and depth.

matplotlib is an optional dependency (the `bench` extra); without it the
harness still measures and reports, and says that it drew no plots."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .records import COMPILED, SOLVED, WRONG, Row

CACTUS = "cactus.png"
BY_SIDE = "scaling_side.png"
BY_DEPTH = "scaling_depth.png"


def available() -> str | None:
    """Why plots cannot be drawn here, or None."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]')"
    return None


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def solved_times(rows: list[Row]) -> dict[str, list[float]]:
    """Per configuration, the sorted solve times of the runs that gave a verdict that is not wrong."""
    times: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if not row.solver:
            continue
        times.setdefault(row.config, [])
        if row.status == SOLVED and row.check != WRONG and row.solve_s is not None:
            times[row.config].append(row.solve_s)
    return {config: sorted(values) for config, values in times.items()}


def cactus(rows: list[Row], path: Path, time_limit: float | None = None) -> bool:
    """Instances solved (y) within a time (x), one line per configuration."""
    times = solved_times(rows)
    if not times:
        return False
    plt = _pyplot()
    attempted = len({row.instance for row in rows if row.solver})
    fig, ax = plt.subplots(figsize=(7, 4.5))
    start = min([1e-3] + [v[0] for v in times.values() if v])
    end = max([time_limit or 0.0] + [v[-1] for v in times.values() if v])
    for config, values in times.items():
        # from (start, 0) up one step per decided instance, then flat to the limit
        xs = [start] + values + [end]
        ys = [0] + list(range(1, len(values) + 1)) + [len(values)]
        ax.step(xs, ys, where="post", label=f"{config} ({len(values)})")
    ax.set_xscale("log")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("solve time (s, log scale)")
    ax.set_ylabel(f"instances solved (of {attempted})")
    if time_limit:
        ax.axvline(time_limit, color="grey", linestyle=":", linewidth=1)
    ax.set_title("Cactus plot: instances decided within a time")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def scaling_series(rows: list[Row], along: str) -> tuple[int | None, list[Row]]:
    """The compile-only rows of one sweep: `along="side"` keeps the depth that has the most
    board sides measured, `along="depth"` the side with the most depths.  (fixed value, rows)."""
    compiled = [r for r in rows if r.set == "scaling" and r.status == COMPILED and r.width is not None and r.width == r.height]
    if not compiled:
        return None, []
    fixed_of = (lambda r: r.depth) if along == "side" else (lambda r: r.width)
    moving_of = (lambda r: r.width) if along == "side" else (lambda r: r.depth)
    spread: dict[int, set[int]] = defaultdict(set)
    for r in compiled:
        spread[fixed_of(r)].add(moving_of(r))
    fixed = max(sorted(spread), key=lambda k: len(spread[k]))
    if len(spread[fixed]) < 2:
        return fixed, []
    return fixed, sorted((r for r in compiled if fixed_of(r) == fixed), key=moving_of)


def scaling(rows: list[Row], along: str, path: Path) -> bool:
    """Compile time, formula size, file size and peak memory against the board side or the depth."""
    fixed, series = scaling_series(rows, along)
    if not series:
        return False
    plt = _pyplot()
    x_of = (lambda r: r.width) if along == "side" else (lambda r: r.depth)
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    (time_ax, size_ax), (bytes_ax, memory_ax) = axes
    by_encoding: dict[str, dict[int, Row]] = defaultdict(dict)
    by_variant: dict[tuple[str, str], dict[int, Row]] = defaultdict(dict)
    for r in series:
        by_encoding[r.encoding].setdefault(x_of(r), r)
        if r.qdimacs_clauses is not None:
            by_variant[(r.encoding, r.tseitin)][x_of(r)] = r
    for encoding, points in by_encoding.items():
        xs = sorted(points)
        time_ax.plot(xs, [points[x].compile_process_s for x in xs], marker="o", label=f"{encoding}: whole process")
        time_ax.plot(xs, [points[x].compile_inprocess_s for x in xs], marker=".", linestyle="--", label=f"{encoding}: in-process")
        size_ax.plot(xs, [points[x].qcir_gates for x in xs], marker="o", label=f"{encoding}: QCIR gates")
        bytes_ax.plot(xs, [points[x].qcir_bytes / 1e6 for x in xs], marker="o", label=f"{encoding}: QCIR")
        memory_ax.plot(xs, [points[x].compile_peak_mb for x in xs], marker="o", label=encoding)
    for (encoding, tseitin), points in by_variant.items():
        xs = sorted(points)
        size_ax.plot(xs, [points[x].qdimacs_clauses for x in xs], linestyle="--", label=f"{encoding}: clauses ({tseitin})")
        bytes_ax.plot(xs, [points[x].qdimacs_bytes / 1e6 for x in xs], linestyle="--", label=f"{encoding}: QDIMACS ({tseitin})")
    xlabel = "board side n (n x n)" if along == "side" else "depth (plies)"
    fixed_text = f"depth {fixed}" if along == "side" else f"{fixed}x{fixed} board"
    for ax, title, unit in (
        (time_ax, "compile time", "seconds"),
        (size_ax, "formula size", "count"),
        (bytes_ax, "file size", "MB"),
        (memory_ax, "compile peak memory (whole process)", "MB"),
    ):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"Five in a row, {fixed_text}: compile cost against the {along}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def draw_all(rows: list[Row], folder: Path, time_limit: float | None = None) -> list[Path]:
    """Every plot the rows allow; returns the files written."""
    written = []
    if cactus(rows, folder / CACTUS, time_limit):
        written.append(folder / CACTUS)
    if scaling(rows, "side", folder / BY_SIDE):
        written.append(folder / BY_SIDE)
    if scaling(rows, "depth", folder / BY_DEPTH):
        written.append(folder / BY_DEPTH)
    return written
