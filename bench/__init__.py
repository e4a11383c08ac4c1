"""bench: the benchmark harness of bddlc.

It sits on top of everything (bddl, circuits and compiler never import it)
and measures what issue 5 asks about: for each instance of a named set
(`suite`, `corpus`, `scaling`, `quick`), the whole-process and in-process
compile time, the formula's size (QCIR and QDIMACS), and for each solving
configuration the verdict, checked against the known answer, and the solve
time under a limit.  Results go to a CSV, a markdown table and PNG plots;
`docs/benchmarks.md` is generated from them.

Modules: `suite`, `corpus` (the answer tables, shared with the tests),
`instances` (the sets), `configs`, `preprocessing`, `measure`, `runner`,
`verdicts`, `records` (CSV), `report` (markdown), `plots`, `progress`,
`machine`, `cli`.
"""
