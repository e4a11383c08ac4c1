"""No process bddlc starts outlives it: SIGINT, SIGTERM, SIGHUP and even SIGKILL of bddlc
end the solver it runs, and whatever that solver started itself.

The solver is a stand-in wrapper script that starts the "real" solver (a
`sleep`) as its own child and waits for it, the shape of pyqbf's wrapper
programs: the parent-death signal alone would kill only the wrapper.  Each
test starts bddlc in a fresh process, waits until the stand-in runs, sends
the signal, and polls (with a deadline) until neither the wrapper nor the
program it started is alive."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, shell_program
from helpers.signals import as_from_a_terminal

DEADLINE = 20.0  # seconds for anything to happen; the solves themselves would run 600 s
MODEL = ["domains/positional.bddl", "problems/httt/tic_3x3_d9.bddl"]


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fp:
            state = fp.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_until(condition, what: str, deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stand_in_solver(folder: Path) -> tuple[Path, Path]:
    """A wrapper script that starts a long `sleep` and writes both pids to a file."""
    pids = folder / "pids"
    program = shell_program(folder, "wrapper", f'sleep 600 &\necho "$$ $!" > {pids}.tmp && mv {pids}.tmp {pids}\nwait\nexit 0')
    return program, pids


@pytest.fixture(autouse=True)
def _no_leftovers_from_a_failed_test():
    yield
    for proc in _started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _started.clear()


_started: list[subprocess.Popen] = []


def run_bddlc(code: str, folder: Path, **environment: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **environment)
    script = folder / "harness.py"
    script.write_text(code)
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=as_from_a_terminal)
    _started.append(proc)
    return proc


def cli_with_stand_in(program: Path, argv: list[str]) -> str:
    """A Python program that runs the bddlc command line with every solver replaced by `program`."""
    return (
        "import sys\nfrom pathlib import Path\nfrom compiler.solving.qbf import solver_programs as solvers\n"
        f"solvers.solver_path = lambda name: Path({str(program)!r})\n"
        "from compiler.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )


def _signal_status(pid: int) -> str:
    """The Sig* lines of /proc/PID/status (which signals are blocked, ignored, caught)."""
    try:
        with open(f"/proc/{pid}/status") as fp:
            return "; ".join(line.strip() for line in fp if line.startswith(("SigBlk", "SigIgn", "SigCgt")))
    except OSError as exc:
        return str(exc)


def temporary_folder(tmp_path: Path) -> Path:
    """The TMPDIR of a bddlc under test, to see which temporary folders it leaves."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    return temporary


def folders_removed(temporary: Path) -> None:
    """bddlc's temporary folders (formulas, members') are gone; lark keeps its grammar cache there, on purpose."""
    wait_until(lambda: not list(temporary.glob("bddlc-*")), f"bddlc's temporary folders in {temporary} to be removed")


def read_pids(path: Path) -> list[int]:
    wait_until(path.exists, "the stand-in solver to start")
    return [int(word) for word in path.read_text().split()]


def end_and_check(bddlc: subprocess.Popen, pids: list[int], number: int) -> None:
    assert all(alive(pid) for pid in pids)
    bddlc.send_signal(number)
    try:
        _, err = bddlc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        status = _signal_status(bddlc.pid)
        bddlc.kill()
        raise AssertionError(f"bddlc did not end within {DEADLINE} s of {signal.Signals(number).name}; its signal state: {status}") from None
    expected = -signal.SIGKILL if number == signal.SIGKILL else 128 + number
    assert bddlc.returncode == expected, err
    wait_until(lambda: not any(alive(pid) for pid in pids), f"solver processes {pids} to end")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_solve_leaves_no_solver_behind(tmp_path, number):
    """... nor the folder of the formula the solver reads (removed by the watchdog after a SIGKILL)."""
    program, pid_file = stand_in_solver(tmp_path)
    temporary = temporary_folder(tmp_path)
    bddlc = run_bddlc(cli_with_stand_in(program, ["solve", *MODEL, "--solver", "depqbf", "--engine", "qbf"]), tmp_path, TMPDIR=str(temporary))
    pids = read_pids(pid_file)
    assert list(temporary.glob("bddlc-*/formula.*"))
    end_and_check(bddlc, pids, number)
    folders_removed(temporary)


@pytest.mark.parametrize(
    "argv",
    [
        ["depth", *MODEL, "--solver", "depqbf", "--engine", "qbf"],
        ["solve", *MODEL, "--solver", "auto", "--engine", "qbf"],  # the solvers' portfolio: both members run the stand-in
        ["validate", *MODEL, "--solver", "qute", "--engine", "qbf"],
        ["play", *MODEL, "--solver", "qute", "--engine", "qbf"],
    ],
    ids=lambda argv: f"{argv[0]}-{argv[4]}",
)
# SIGKILL is the hard case (no handler runs); SIGTERM's path is the one solve's tests cover
@pytest.mark.parametrize("number", [pytest.param(signal.SIGTERM, marks=pytest.mark.slow), signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_every_command_leaves_no_solver_behind(tmp_path, argv, number):
    program, pid_file = stand_in_solver(tmp_path)
    temporary = temporary_folder(tmp_path)
    bddlc = run_bddlc(cli_with_stand_in(program, argv), tmp_path, TMPDIR=str(temporary))
    end_and_check(bddlc, read_pids(pid_file), number)
    folders_removed(temporary)


@pytest.mark.parametrize("number", [pytest.param(signal.SIGTERM, marks=pytest.mark.slow), signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_bloqqers_forked_child_ends_with_bddlc(tmp_path, number):
    """Bloqqer runs in a forked child (it holds the GIL): that child must end too."""
    pid_file = tmp_path / "pids"
    code = (
        "import os, sys, time\nimport pyqbf.process\n"
        "class Stuck:\n"
        "    def preprocess(self, formula):\n"
        f"        open({str(pid_file) + '.tmp'!r}, 'w').write(str(os.getpid()))\n"
        f"        os.rename({str(pid_file) + '.tmp'!r}, {str(pid_file)!r})\n"
        "        time.sleep(600)\n"
        "pyqbf.process.Bloqqer = Stuck\n"
        "from compiler.cli import main\n"
        f"sys.exit(main({['solve', *MODEL, '--preprocess', 'bloqqer', '--engine', 'qbf']!r}))\n"
    )
    bddlc = run_bddlc(code, tmp_path)
    end_and_check(bddlc, read_pids(pid_file), number)


@pytest.mark.parametrize("number", [pytest.param(signal.SIGTERM, marks=pytest.mark.slow), signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_bench_leaves_no_solver_behind(tmp_path, number):
    program, pid_file = stand_in_solver(tmp_path)
    code = (
        "import sys\nfrom pathlib import Path\nfrom compiler.solving.qbf import solver_programs as solvers\n"
        f"solvers.solver_path = lambda name: Path({str(program)!r})\n"
        "from bench.cli import main\n"
        f"sys.exit(main(['--sets', 'suite', '--filter', 'suite/httt/el_3x3_d3', '--config', 'explicit/pg-early/depqbf',"
        f" '--time-limit', '600', '--output', {str(tmp_path / 'out')!r}, '--no-plots']))\n"
    )
    bddlc = run_bddlc(code, tmp_path)
    end_and_check(bddlc, read_pids(pid_file), number)


def test_a_real_solver_dies_with_bddlc(tmp_path):
    """The real DepQBF on a formula it works on for long: SIGKILL bddlc, and DepQBF goes too (checked with ps)."""
    from compiler.solving.qbf.solver_programs import solver_path

    try:
        depqbf = solver_path("depqbf")
    except Exception as exc:  # pragma: no cover - pyqbf missing
        pytest.skip(str(exc))
    code = (
        "import sys\nfrom compiler.cli import main\n"
        "sys.exit(main(['solve', 'domains/connect.bddl', 'problems/connect/connect4_5x4_d19.bddl', '--solver', 'depqbf']))\n"
    )
    bddlc = run_bddlc(code, tmp_path)

    def solver_pids() -> list[int]:
        listing = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
        return [int(line.split()[0]) for line in listing.splitlines() if str(depqbf) in line and int(line.split()[1]) == bddlc.pid]

    wait_until(lambda: bool(solver_pids()) or bddlc.poll() is not None, "DepQBF to start", deadline=120)
    pids = solver_pids()
    if not pids:
        pytest.skip(f"the solve ended before the test could kill it: {bddlc.communicate()}")
    end_and_check(bddlc, pids, signal.SIGKILL)


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fp:
        return int(fp.read().rsplit(")", 1)[1].split()[1])


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGKILL], ids=lambda n: signal.Signals(n).name)
def test_bench_on_local_workers_leaves_no_worker_or_solver_behind(tmp_path, number):
    """The local Dask workers (forked from bench) and their solvers end with bench, even under SIGKILL."""
    pytest.importorskip("distributed")
    program, pid_file = stand_in_solver(tmp_path)
    code = (
        "import sys\nfrom pathlib import Path\nfrom compiler.solving.qbf import solver_programs as solvers\n"
        f"solvers.solver_path = lambda name: Path({str(program)!r})\n"
        "from bench.cli import main\n"
        "if __name__ == '__main__':\n"
        f"    sys.exit(main(['--sets', 'suite', '--filter', 'suite/httt/el_3x3_d3', '--config', 'explicit/pg-early/depqbf',"
        f" '--time-limit', '600', '--output', {str(tmp_path / 'out')!r}, '--no-plots', '--workers', '2']))\n"
    )
    bddlc = run_bddlc(code, tmp_path)
    pids = read_pids(pid_file)
    worker = parent_of(pids[0])  # the stand-in's parent: the worker that runs the task
    assert worker != bddlc.pid and parent_of(worker) == bddlc.pid
    bddlc.send_signal(number)
    try:
        bddlc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        status = _signal_status(bddlc.pid)
        bddlc.kill()
        raise AssertionError(f"bddlc did not end within {DEADLINE} s of {signal.Signals(number).name}; its signal state: {status}") from None
    wait_until(lambda: not any(alive(pid) for pid in [*pids, worker]), f"the worker {worker} and solver processes {pids} to end")


@pytest.mark.parametrize("command", [["solve"], ["depth", "--min", "9"], ["validate"]], ids=lambda argv: argv[0])
@pytest.mark.parametrize("number", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow), signal.SIGKILL],
                         ids=lambda n: signal.Signals(n).name)
def test_the_routes_race_leaves_nothing_behind(tmp_path, number, command):
    """`solve`, `depth` and `validate` with their default, --engine auto: the search member (a forked
    child, made to run long here) and the QBF member's solver (the stand-in, in a second forked child)
    both end with bddlc, and the members' temporary files (the QBF member's formula) go with them."""
    program, pid_file = stand_in_solver(tmp_path)
    temporary = temporary_folder(tmp_path)
    search_pid = tmp_path / "search-pid"
    code = (
        "import os, time\nfrom compiler.solving import routes\n"
        "def long_search(model, *args, **kwargs):\n"
        f"    open({str(search_pid) + '.tmp'!r}, 'w').write(str(os.getpid()))\n"
        f"    os.rename({str(search_pid) + '.tmp'!r}, {str(search_pid)!r})\n"
        "    time.sleep(600)\n"
        "routes.search_result = long_search\n"
        "routes._head_start = lambda *args: None\n"  # the race itself: no head start in bddlc's own process
    ) + cli_with_stand_in(program, [command[0], *MODEL, *command[1:], "--solver", "depqbf"])
    bddlc = run_bddlc(code, tmp_path, TMPDIR=str(temporary))
    pids = read_pids(pid_file) + read_pids(search_pid)
    assert list(temporary.glob("bddlc-member-*/*/formula.*")), "the QBF member writes its formula in its member folder"
    end_and_check(bddlc, pids, number)
    folders_removed(temporary)
