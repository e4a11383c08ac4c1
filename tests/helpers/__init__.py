"""What the tests share: the game suite and the corpus as test data, the
differential cases, random games (hypothesis strategies), solver calls, the
docs' console examples, and which cases are quick (`speed`).

Test modules import from here (`from helpers.suite import manifest`); conftest.py
keeps only pytest's own hooks, fixtures and the paths every helper needs.
"""
