#!/usr/bin/env bash
# The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer (docs/engines-core.md):
# build it with -fsanitize=address,undefined -g -O1 into a scratch copy of the working tree (the
# installed core is left alone) and run the differential tests, tests/pg/test_compiled_core.py and
# test_compiled_knowledge.py, tests/bddl/test_compiled_bddl.py (the BDDL minimax) and
# test_compiled_pns.py (the BDDL df-pn and the race patterns), and test_compiled_leaf_search.py
# and tests/pg/test_compiled_leaf_search_pg.py (the persistent searchers of PPN²'s search leaf
# jobs), tests/pg/test_compiled_pg_pns.py (the .pg games' df-pn), and tests/test_core_certificates.py
# (the same searchers asked a certificate's questions: decide and refute), against it.
# Extra arguments go to pytest.  CI runs it once (BDDLC_SANITIZE=1 runs it from
# tests/pg/test_sanitized_core.py).
#
# The Python interpreter is not built with ASan, so its runtime must be loaded first: LD_PRELOAD
# of the compiler's libasan (found with -print-file-name).  Leak detection is off, as Python
# keeps its objects to the end by design; any ASan report or undefined behaviour aborts the run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
tree="$scratch/tree"
mkdir "$tree"
# the tests read the corpus beside the checkout (../shared/corpus); so does the copy
if [ -d "$root/../shared" ]; then ln -s "$(cd "$root/../shared" && pwd)" "$scratch/shared"; fi
tar -C "$root" --exclude='*.so' --exclude='_core.cpp' --exclude='__pycache__' --exclude='.hypothesis' \
    -cf - bddl bddlc bench compiler circuits tests problems domains setup.py pyproject.toml | tar -C "$tree" -xf -
cd "$tree"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
BDDLC_CORE_CFLAGS="$flags" python setup.py -q build_ext --inplace >build.log 2>&1 || { cat build.log; exit 1; }
asan="$(${CXX:-g++} -print-file-name=libasan.so)"
export LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
python - "$tree" <<'PY'
import sys
from bddl.engines import compiled
assert compiled.available(), f"the sanitized core did not build: {compiled.why_unavailable()}"
assert compiled.__file__.startswith(sys.argv[1]), f"the tests would import {compiled.__file__}, not the sanitized copy"
PY
echo "sanitize_core: the core built with $flags; running the differential tests with LD_PRELOAD=$asan"
BDDLC_REQUIRE_CORE=1 BDDLC_SANITIZE=0 python -m pytest -q -p no:cacheprovider tests/pg/test_compiled_core.py tests/pg/test_compiled_knowledge.py \
    tests/bddl/test_compiled_bddl.py tests/bddl/test_compiled_pns.py tests/bddl/test_compiled_leaf_search.py \
    tests/pg/test_compiled_leaf_search_pg.py tests/pg/test_compiled_pg_pns.py tests/pg/test_compiled_pairs.py tests/test_core_certificates.py "$@"
