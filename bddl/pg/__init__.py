"""Positional games: the second language bddlc reads beside BDDL.

A positional game is given by its cells, the sequence of turns, each side's
winning sets and the stones on the board before play (the `.pg` format of the
positional-games QBF papers, with Q-sage's Hex extension).  This package stands
on its own, like the rest of `bddl/`: the representation (`game`), the `.pg`
reader and writer, the explicit solver that is the oracle for every encoding of
these games, and generators for the classic families.
"""
