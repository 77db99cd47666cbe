"""The README stays a newcomer's page and the guides hold together (issue 25, 6): the README is at
most 250 lines, and every relative link in it and in docs/**/*.md leads to a file of the repository."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 250
# [words](target) and [words](target "title"), outside code: the target up to a space or ")".
LINK = re.compile(r"(?<!\!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INDENTED = re.compile(r"^(?: {4}|\t).*$", re.M)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def relative_links(text: str) -> list[str]:
    text = FENCE.sub("", text)
    text = INDENTED.sub("", text)
    text = CODE_SPAN.sub("", text)
    targets = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # the web, mail, or a place in the same page
        targets.append(target.split("#", 1)[0])
    return targets


def test_it_keeps_the_readme_to_at_most_250_lines():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move the details to a guide in docs/"


def test_it_keeps_the_readme_commands_and_a_link_to_every_guide():
    """The two set-up commands, and a link to each reader's guide (every operators' guide by name)."""
    readme = (ROOT / "README.md").read_text()
    for command in ("make run", "make test"):
        assert f"    {command} " in readme, command
    guides = [
        ROOT / "docs" / "arbiters" / "README.md",
        ROOT / "docs" / "mobile-chess" / "README.md",
        ROOT / "docs" / "developers" / "README.md",
        ROOT / "docs" / "rules" / "README.md",
        *sorted((ROOT / "docs" / "operators").glob("*.md")),
    ]
    unlinked = [g.relative_to(ROOT).as_posix() for g in guides if f"]({g.relative_to(ROOT).as_posix()})" not in readme]
    assert unlinked == []


def test_it_resolves_every_relative_link_of_the_readme_and_the_guides():
    broken = []
    for source in markdown_files():
        for target in relative_links(source.read_text()):
            resolved = (source.parent / target).resolve()
            try:
                resolved.relative_to(ROOT)
            except ValueError:
                broken.append(f"{source.relative_to(ROOT)}: {target} (outside the repository)")
                continue
            if not resolved.is_file():
                broken.append(f"{source.relative_to(ROOT)}: {target}")
    assert broken == []


def test_it_finds_the_links_it_checks():
    """The pattern sees links, ignores code and the web, and keeps the file of a link with an anchor."""
    text = (
        "See [a](docs/a.md), [b](../b.md#part) and [web](https://x.org), [here](#top).\n"
        "`[not](code.md)`\n\n    [indented](code2.md)\n\n```\n[fenced](code3.md)\n```\n![pic](p.png)\n"
    )
    assert relative_links(text) == ["docs/a.md", "../b.md"]
