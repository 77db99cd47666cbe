"""The apps form a layered DAG: players < ratings < tournaments, play (docs/rules/design.md, "Layering").

Every import of every module is read with `ast`, those inside functions too (a lazy import is
still a dependency), and any import of a higher app, or of a sibling at the same level, fails
with the module and line. The federation's utility modules (all but the wiring: settings, URLs,
pages and services that combine apps, admin, management commands) import no app at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What each app may import, besides itself (and federation's utilities, Django, the libraries).
ALLOWED = {
    "players": set(),
    "ratings": {"players"},
    "tournaments": {"players", "ratings"},
    "play": {"players", "ratings"},
}
APPS = set(ALLOWED)
# federation/: the modules that wire apps together; every other module there is a utility.
WIRING = {
    "settings",
    "settings_test",
    "urls",
    "api_urls",
    "staff_urls",
    "views",
    "staff_views",
    "api",
    "corrections",
    "admin",
    "celery",
    "management",
    "migrations",
}


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


def modules(package: str):
    yield from sorted((ROOT / package).rglob("*.py"))


def upward_imports() -> list[str]:
    problems = []
    for app, allowed in ALLOWED.items():
        for path in modules(app):
            for package, line in imported_packages(path):
                if package in APPS and package != app and package not in allowed:
                    problems.append(
                        f"{path.relative_to(ROOT)}:{line} imports {package} ({app} may import {allowed or 'no app'})"
                    )
    return problems


def app_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {app: set() for app in APPS}
    for app in APPS:
        for path in modules(app):
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


def test_it_finds_no_upward_import_between_apps():
    problems = upward_imports()
    assert not problems, "upward imports:\n" + "\n".join(problems)


def test_it_finds_no_cycle_between_apps():
    graph = app_graph()
    assert cycle(graph) is None, f"import cycle between apps: {' -> '.join(cycle(graph))}"


def test_it_keeps_the_federation_utilities_free_of_apps():
    problems = []
    for path in modules("federation"):
        parts = path.relative_to(ROOT / "federation").with_suffix("").parts
        if parts[0] in WIRING:
            continue
        for package, line in imported_packages(path):
            if package in APPS:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {package}")
    assert not problems, "federation utilities importing apps:\n" + "\n".join(problems)


def test_it_reads_lazy_imports_inside_functions(tmp_path):
    module = tmp_path / "lazy.py"
    module.write_text("import os\n\ndef f():\n    from tournaments.models import Game\n    import play.rules\n")
    assert imported_packages(module) == [("os", 1), ("tournaments", 4), ("play", 5)]


def test_it_names_a_cycle_when_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
