"""Importing this module runs ``rules.load_all()``: the scan's forkserver preloads it by name,
so every worker it forks starts with the rule modules and the parsers they load on first use."""

from . import load_all

load_all()
