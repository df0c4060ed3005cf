"""Mutants as whole source files, for benchmarks/mutation.py's own runner.

Two operators:

- ``mutmut``: mutmut 3.8.1's own operators (its ``create_mutations``), kept where mutmut keeps
  them (top-level functions and methods of top-level classes, not decorated ones) and named
  as mutmut names them (``pkg.mod.xǁClassǁmethod__mutmut_3``), so equivalents read the same.
- ``delete``: statement deletion, which mutmut does not do. Inside every function and
  method (decorated ones and nested ones too), each simple statement whose loss a test
  could see is replaced by ``pass``:

  * expression statements (calls, awaits), except a docstring or ``...``;
  * assignments, augmented and annotated assignments, except the first binding of a local
    name: the next read raises NameError, which only says the line runs;
  * ``del``, ``raise``, ``continue``, ``break``;
  * ``return value`` becomes ``return None``; a bare ``return`` becomes ``pass`` (the
    function goes on), unless it ends the function.

  Not deleted: ``assert`` (states what the types already say), imports, ``global`` /
  ``nonlocal``, ``pass``, compound statements (their body's statements are deleted one
  by one). Named ``pkg.mod.xǁClassǁmethod__delete_3`` (numbered per top-level function).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

SEP = "ǁ"


@dataclass
class Mutant:
    name: str
    operator: str  # "mutmut" | "delete"
    first: int  # lines of the original file the mutant changes (1-based, inclusive)
    last: int
    diff: str
    source: str


def module_name(path: str) -> str:
    name = path.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def mangle(function: str, cls: str | None) -> str:
    return f"x{SEP}{cls}{SEP}{function}" if cls else f"x_{function}"


def changed(original: str, mutated: str) -> tuple[int, int, str]:
    """First and last changed line of ``original`` and the diff ('-old\\n+new', stripped lines)."""
    old, new = original.splitlines(), mutated.splitlines()
    first = last = None
    out_old, out_new = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        first = i1 + 1 if first is None else first
        last = max(i2, i1 + 1)
        out_old += old[i1:i2]
        out_new += new[j1:j2]
    diff = "\n".join(["-" + x.strip() for x in out_old] + ["+" + x.strip() for x in out_new])
    return first or 0, last or 0, diff


def _top_levels(module: cst.Module) -> Iterator[tuple[cst.FunctionDef, str | None]]:
    for node in module.body:
        if isinstance(node, cst.FunctionDef):
            yield node, None
        elif isinstance(node, cst.ClassDef) and isinstance(node.body, cst.IndentedBlock):
            for m in node.body.body:
                if isinstance(m, cst.FunctionDef):
                    yield m, node.name.value


def mutmut_mutants(path: str, code: str) -> list[Mutant]:
    from mutmut.mutation.file_mutation import create_mutations  # noqa: PLC0415

    module, mutations, _, _ = create_mutations(path, code)
    names = {id(f): mangle(f.name.value, cls) for f, cls in _top_levels(module)}
    count: dict[int, int] = {}
    out = []
    for m in mutations:
        top = m.contained_by_top_level_function
        if top is None or id(top) not in names:
            continue
        # mutmut skips decorated functions (its trampolines would run decorators twice).
        if top.decorators and not (len(top.decorators) == 1 and isinstance(top.decorators[0].decorator, cst.Name)
                                   and top.decorators[0].decorator.value in ("staticmethod", "classmethod")):
            continue
        count[id(top)] = count.get(id(top), 0) + 1
        source = module.deep_replace(m.original_node, m.mutated_node).code
        first, last, diff = changed(code, source)
        if not diff:
            continue
        out.append(Mutant(f"{module_name(path)}.{names[id(top)]}__mutmut_{count[id(top)]}", "mutmut",
                          first, last, diff, source))
    return out


_DELETED = (cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Del, cst.Raise, cst.Continue, cst.Break,
            cst.Return)


class _Bindings(cst.CSTVisitor):
    """Where each name of a function is bound (not descending into nested functions)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, wrapper: MetadataWrapper, root: cst.FunctionDef) -> None:
        self.pos = wrapper.resolve(PositionProvider)
        self.root = root
        self.lines: dict[str, list[int]] = {}
        self.declared: set[str] = set()

    def _bind(self, target: cst.BaseExpression, line: int) -> None:
        if isinstance(target, cst.Name):
            self.lines.setdefault(target.value, []).append(line)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind(el.value, line)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, line)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if node is not self.root:
            self._bind(node.name, self.pos[node].start.line)
            return False
        for p in [*node.params.params, *node.params.posonly_params, *node.params.kwonly_params]:
            self._bind(p.name, 0)
        for p in (node.params.star_arg, node.params.star_kwarg):
            if isinstance(p, cst.Param):
                self._bind(p.name, 0)
        return True

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._bind(node.name, self.pos[node].start.line)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, self.pos[node].start.line)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, self.pos[node].start.line)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, self.pos[node].start.line)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, self.pos[node].start.line)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, self.pos[node].start.line)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind(node.name.name, self.pos[node].start.line)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, self.pos[node].start.line)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        name = node.asname.name if node.asname else node.name
        if isinstance(name, cst.Name):
            self._bind(name, self.pos[node].start.line)
        elif isinstance(name, cst.Attribute):  # import a.b binds a
            root = name
            while isinstance(root, cst.Attribute):
                root = root.value
            self._bind(root, self.pos[node].start.line)

    def visit_Global(self, node: cst.Global) -> None:
        self.declared |= {n.name.value for n in node.names}

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.declared |= {n.name.value for n in node.names}

    def first_binding(self, target: cst.BaseExpression, line: int) -> bool:
        """Whether every name ``target`` binds at ``line`` is bound there for the first time."""
        names: list[str] = []

        def collect(t: cst.BaseExpression) -> bool:
            if isinstance(t, cst.Name):
                names.append(t.value)
                return True
            if isinstance(t, (cst.Tuple, cst.List)):
                return all(collect(e.value) for e in t.elements)
            if isinstance(t, cst.StarredElement):
                return collect(t.value)
            return False  # an attribute or an item: the object outlives the function

        if not collect(target):
            return False
        return all(n not in self.declared and min(self.lines.get(n, [line])) >= line for n in names)


class _Deletions(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider, ParentNodeProvider)

    def __init__(self, wrapper: MetadataWrapper) -> None:
        self.wrapper = wrapper
        self.pos = wrapper.resolve(PositionProvider)
        self.parent = wrapper.resolve(ParentNodeProvider)
        self.found: list[tuple[cst.FunctionDef, cst.BaseSmallStatement, cst.BaseSmallStatement]] = []
        self.functions: list[tuple[cst.FunctionDef, _Bindings]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        b = _Bindings(self.wrapper, node)
        node.visit(b)
        self.functions.append((node, b))

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def _docstring(self, node: cst.Expr) -> bool:
        line = self.parent[node]
        block = self.parent.get(line)
        if not isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            return False
        owner = self.parent.get(block)
        first = block.body[0] if isinstance(block, cst.IndentedBlock) else block
        return isinstance(owner, (cst.FunctionDef, cst.ClassDef)) and (first is line or first is node)

    def _ends_function(self, node: cst.Return) -> bool:
        line = self.parent[node]
        block = self.parent.get(line)
        return (isinstance(block, cst.IndentedBlock) and isinstance(self.parent.get(block), cst.FunctionDef)
                and block.body[-1] is line)

    def on_visit(self, node: cst.CSTNode) -> bool:
        super().on_visit(node)
        if not self.functions or not isinstance(node, _DELETED):
            return True
        function, bindings = self.functions[-1]
        line = self.pos[node].start.line
        replacement: cst.BaseSmallStatement | None = cst.Pass()
        if isinstance(node, cst.Expr):
            if isinstance(node.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString)) and self._docstring(node):
                replacement = None
            elif isinstance(node.value, cst.Ellipsis):
                replacement = None
        elif isinstance(node, cst.Assign):
            if all(bindings.first_binding(t.target, line) for t in node.targets):
                replacement = None
        elif isinstance(node, cst.AnnAssign):
            if node.value is None or bindings.first_binding(node.target, line):
                replacement = None
        elif isinstance(node, cst.Return):
            if node.value is not None:
                none = isinstance(node.value, cst.Name) and node.value.value == "None"
                replacement = None if none else node.with_changes(value=cst.Name("None"))
            elif self._ends_function(node):
                replacement = None
        if replacement is not None:
            self.found.append((self.functions[0][0], node, replacement))
        return True


def deletion_mutants(path: str, code: str) -> list[Mutant]:
    module = cst.parse_module(code)
    wrapper = MetadataWrapper(module)
    tops = {id(f): mangle(f.name.value, cls) for f, cls in _top_levels(wrapper.module)}
    visitor = _Deletions(wrapper)
    wrapper.visit(visitor)
    count: dict[str, int] = {}
    out = []
    for top, node, replacement in visitor.found:
        # A function nested in a top-level function counts under it (as mutmut names them); a
        # method of a nested class too; functions elsewhere (never in this code base) by name.
        owner = tops.get(id(top), f"x_{top.name.value}")
        count[owner] = count.get(owner, 0) + 1
        source = wrapper.module.deep_replace(node, replacement).code
        first, last, diff = changed(code, source)
        out.append(Mutant(f"{module_name(path)}.{owner}__delete_{count[owner]}", "delete", first, last, diff,
                          source))
    return out
