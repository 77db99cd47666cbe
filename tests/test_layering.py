"""The floor plan, kept by a test (docs/developers/architecture.md, "Floor plan").

Every import of every module is read with `ast`, those inside functions too (a lazy import is still
a dependency, and a function-level import that hides a circle is still a circle). The test fails on:
- an import of a higher app, or of a sibling at the same level (the apps form a layered DAG);
- an import circle between modules anywhere in the repository (apps, project package, tests,
  benchmarks), with the modules of the circle and the line of each import;
- a module over 600 lines, and a package with more than 20 modules at its top level;
- a module in the project package `federation/` that is not wiring (an allow-list), and an app
  that imports the project package for anything but its settings or URLs.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What each app may import, besides itself (and Django, the libraries). `toolkit` is the small
# package of helpers several apps share; it imports no app.
ALLOWED = {
    "toolkit": set(),
    "accounts": {"toolkit"},
    "guides": {"toolkit"},
    "players": {"toolkit", "accounts"},
    "ratings": {"toolkit", "accounts", "players"},
    "tournaments": {"toolkit", "accounts", "players", "ratings"},
    "play": {"toolkit", "accounts", "players", "ratings"},
    "api": {"toolkit", "accounts", "players", "ratings", "tournaments"},
    "operations": {"toolkit", "accounts", "players", "ratings", "tournaments", "play"},
}
APPS = set(ALLOWED)
# The project package holds settings and wiring only: these modules (and packages), nothing else.
WIRING = {
    "__init__",
    "settings",
    "settings_test",
    "env",
    "urls",
    "celery",
    "wsgi",
    "asgi",
    "gunicorn.conf",
    "context_processors",
    "errors",
    "management",
    # An app only so that its commands load and `migrate` still reads the history of the audit
    # table it once held (0003 hands the model to accounts without touching the table).
    "apps",
    "migrations",
}
# What an app may import from the project package: the settings and the URLconf, nothing else.
PROJECT_IMPORTS_ALLOWED = {"federation.settings", "federation.urls"}
# Every package of the repository, each checked for circles and sizes (not only the apps).
PACKAGES = APPS | {"federation", "tests", "benchmarks"}
MAX_LINES = 600
MAX_MODULES = 20


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files(package: str, root: Path = ROOT):
    yield from sorted(p for p in (root / package).rglob("*.py") if "__pycache__" not in p.parts)


def imports_of(path: Path, name: str) -> list[tuple[str, int]]:
    """(dotted name, line) of every import in the module, at any depth, relative ones resolved.

    `from a.b import c` names `a.b.c` (a submodule, or a name defined in `a.b`: the caller decides
    which by looking it up)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found += [(f"{source}.{alias.name}", node.lineno) for alias in node.names]
    return found


def imported_packages(path: Path) -> list[tuple[str, int]]:
    """(top-level package, line) of every absolute import in the module, at any depth."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.split(".")[0], node.lineno))
    return found


def module_graph(packages, root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {module it imports: line of the first such import}, over the given packages."""
    files = {module_name(p, root): p for package in packages for p in python_files(package, root)}
    graph: dict[str, dict[str, int]] = {name: {} for name in files}
    for name, path in files.items():
        for dotted, line in imports_of(path, name):
            target = dotted
            while target and target not in files:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].setdefault(target, line)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        # Iterative, so a deep chain of imports cannot hit the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def describe(group: list[str], graph: dict[str, dict[str, int]]) -> str:
    members = set(group)
    edges = [f"    {a} -> {b} (line {graph[a][b]})" for a in group for b in sorted(graph[a]) if b in members]
    return f"  circle of {len(group)} modules:\n" + "\n".join(edges)


def upward_imports() -> list[str]:
    problems = []
    for app, allowed in ALLOWED.items():
        for path in python_files(app):
            for package, line in imported_packages(path):
                if package in APPS and package != app and package not in allowed:
                    problems.append(
                        f"{path.relative_to(ROOT)}:{line} imports {package} ({app} may import {allowed or 'no app'})"
                    )
    return problems


def app_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {app: set() for app in APPS}
    for app in APPS:
        for path in python_files(app):
            graph[app] |= {package for package, _ in imported_packages(path) if package in APPS and package != app}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (first node repeated at its end), or None."""
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node, [node])):
            return found
    return None


def oversized(packages, root: Path = ROOT) -> list[str]:
    problems = []
    for package in packages:
        folders = {root / package} | {p.parent for p in python_files(package, root)}
        for folder in sorted(folders):
            count = len(list(folder.glob("*.py")))
            if count > MAX_MODULES:
                where = folder.relative_to(root)
                problems.append(f"{where}/ has {count} modules at its top level (at most {MAX_MODULES})")
        for path in python_files(package, root):
            lines = len(path.read_text().splitlines())
            if lines > MAX_LINES:
                problems.append(f"{path.relative_to(root)} has {lines} lines (at most {MAX_LINES})")
    return problems


def test_it_knows_every_package_of_the_repository():
    """A new top-level package must be placed in the plan (a layer in ALLOWED, or PACKAGES)."""
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert found <= PACKAGES, f"packages outside the floor plan: {sorted(found - PACKAGES)}"
    assert found >= APPS, f"apps of the plan missing from the tree: {sorted(APPS - found)}"


def test_it_finds_no_upward_import_between_apps():
    problems = upward_imports()
    assert not problems, "upward imports:\n" + "\n".join(problems)


def test_it_finds_no_cycle_between_apps():
    graph = app_graph()
    assert cycle(graph) is None, f"import cycle between apps: {' -> '.join(cycle(graph))}"


def test_it_finds_no_import_circle_between_modules():
    graph = module_graph(sorted(PACKAGES))
    found = circles(graph)
    report = "\n".join(describe(group, graph) for group in found)
    assert not found, "import circles (imports inside functions count):\n" + report


def test_it_keeps_modules_and_packages_small():
    problems = oversized(sorted(PACKAGES))
    assert not problems, "\n".join(problems)


def test_it_keeps_only_wiring_in_the_project_package():
    extra = []
    for path in python_files("federation"):
        first = path.relative_to(ROOT / "federation").parts[0]
        if first.removesuffix(".py") not in WIRING:
            extra.append(str(path.relative_to(ROOT)))
    assert not extra, "feature modules in the project package (move them to an app or toolkit/):\n" + "\n".join(
        sorted(set(extra))
    )


def test_it_keeps_the_federation_utilities_free_of_apps():
    """Apps never import the project package upward, but for its settings and URLs."""
    problems = []
    for app in sorted(APPS):
        for path in python_files(app):
            for dotted, line in imports_of(path, module_name(path)):
                if dotted.split(".")[0] != "federation":
                    continue
                if not any(dotted == ok or dotted.startswith(ok + ".") for ok in PROJECT_IMPORTS_ALLOWED):
                    problems.append(f"{path.relative_to(ROOT)}:{line} imports {dotted}")
    assert not problems, "apps importing the project package:\n" + "\n".join(problems)


def test_it_reads_lazy_imports_inside_functions(tmp_path):
    module = tmp_path / "lazy.py"
    module.write_text("import os\n\ndef f():\n    from tournaments.models import Game\n    import play.rules\n")
    assert imported_packages(module) == [("os", 1), ("tournaments", 4), ("play", 5)]


def test_it_names_a_cycle_when_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_it_finds_a_circle_hidden_in_a_function(tmp_path):
    """The shape issue 25 removed from play/: a service queues a task, the task calls the service
    back, and the service's import of the task sits inside a function."""
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/services.py": "def receive():\n    from app.tasks import deliver\n    deliver()\n",
            "app/tasks.py": "from app import services\n\ndef deliver():\n    services.receive()\n",
            "app/rules.py": "X = 1\n",
        },
    )
    graph = module_graph(["app"], tmp_path)
    assert circles(graph) == [["app.services", "app.tasks"]]
    assert "app.services -> app.tasks (line 2)" in describe(circles(graph)[0], graph)


def test_it_finds_a_package_that_imports_its_own_importers(tmp_path):
    """A package __init__ that imports a submodule which imports the package back is a circle;
    a submodule importing a sibling through the package's name is not."""
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.reader import read\n",
            "pkg/reader.py": "from pkg import Problem\n",
            "other/__init__.py": "",
            "other/a.py": "from other import b\n",
            "other/b.py": "from . import c\n",
            "other/c.py": "import os\n",
        },
    )
    assert circles(module_graph(["pkg", "other"], tmp_path)) == [["pkg", "pkg.reader"]]


def test_it_finds_relative_and_long_circles(tmp_path):
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/a.py": "from .b import x\n",
            "app/b.py": "from app.room.c import y\nx = 1\n",
            "app/room/__init__.py": "",
            "app/room/c.py": "def y():\n    from ..a import z\n",
        },
    )
    assert circles(module_graph(["app"], tmp_path)) == [["app.a", "app.b", "app.room.c"]]


def test_it_measures_module_and_package_sizes(tmp_path):
    write_tree(tmp_path, {f"big/m{i}.py": "" for i in range(MAX_MODULES)} | {"big/__init__.py": ""})
    write_tree(tmp_path, {"ok/__init__.py": "", "ok/long.py": "x = 1\n" * (MAX_LINES + 1)})
    assert oversized(["big", "ok"], tmp_path) == [
        f"big/ has {MAX_MODULES + 1} modules at its top level (at most {MAX_MODULES})",
        f"ok/long.py has {MAX_LINES + 1} lines (at most {MAX_LINES})",
    ]
