"""Every real file in examples/ has its row in examples/README.md: where it comes from (repository,
path, commit, licence) and what the importer must do with it."""

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def rows():
    return [line for line in (EXAMPLES / "README.md").read_text().splitlines() if line.startswith("| ")]


def test_it_names_every_example_file_in_a_readme_row_with_its_source():
    missing = []
    for path in sorted(EXAMPLES.iterdir()):
        if path.name == "README.md" or path.is_dir():
            continue
        stem, _, ext = path.name.rpartition(".")
        # A row may name several files of one tournament: "sp-gonzaga-2010.trn / .sco / .ini".
        row = next((r for r in rows() if path.name in r or (f"{stem}." in r and f".{ext}" in r)), None)
        if row is None or row.count("|") < 5 or "," not in row.split("|")[2]:
            missing.append(path.name)
    assert missing == []
