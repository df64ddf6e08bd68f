"""The generator command line every benchmark shares (`split_generator_main`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from benchmark_core.data import split_generator_main
from benchmark_core.example.generator import SEED, generate, main
from benchmark_core.example.generator import render_split as example_split

PUBLIC = 100


def render(split: str, seed: int) -> dict[str, str]:
    files = {f"{split}.txt": f"{split} from seed {seed}\n"}
    if not split.startswith("hidden"):
        files["PROVENANCE.md"] = "provenance\n"
    return files


def generate_split(argv: list[str], data_dir: Path) -> list[Path]:
    return split_generator_main(
        argv,
        prog="gen",
        description="test generator",
        public_seed=PUBLIC,
        data_dir=data_dir,
        render=render,
        committed_splits=("public", "extended"),
        hidden_splits=("hidden", "hidden-extended"),
    )


def test_a_committed_split_uses_the_public_seed_and_goes_to_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    written = generate_split(["--split", "extended"], data)
    assert written == [data / "extended.txt", data / "PROVENANCE.md"]
    assert (data / "extended.txt").read_text(encoding="utf-8") == "extended from seed 100\n"
    assert capsys.readouterr().err == f"wrote {data / 'extended.txt'}\nwrote {data / 'PROVENANCE.md'}\n"


def test_a_hidden_split_goes_to_dot_hidden_with_a_gitignore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    written = generate_split(["--split", "hidden", "--seed", "7"], tmp_path / "data")
    assert written == [Path(".hidden/hidden.txt"), Path(".hidden/.gitignore")]
    assert (tmp_path / ".hidden" / "hidden.txt").read_text(encoding="utf-8") == "hidden from seed 7\n"
    assert (tmp_path / ".hidden" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert not (tmp_path / "data").exists()


def test_every_hidden_split_follows_the_hidden_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    written = generate_split(["--split", "hidden-extended", "--seed", "7"], tmp_path / "data")
    assert written == [Path(".hidden/hidden-extended.txt"), Path(".hidden/.gitignore")]
    for argv in (["--split", "hidden-extended"], ["--split", "hidden-extended", "--seed", str(PUBLIC)]):
        with pytest.raises(SystemExit) as exited:
            generate_split(argv, tmp_path / "data")
        assert exited.value.code == 2


def test_an_existing_gitignore_in_the_hidden_folder_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "private"
    out.mkdir()
    (out / ".gitignore").write_text("hidden.txt\n", encoding="utf-8")
    assert generate_split(["--split", "hidden", "--seed", "7", "--out", str(out)], tmp_path) == [out / "hidden.txt"]
    assert (out / ".gitignore").read_text(encoding="utf-8") == "hidden.txt\n"


def test_git_ignores_a_hidden_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    monkeypatch.chdir(tmp_path)
    subprocess.run([git, "init", "-q"], check=True)
    generate_split(["--split", "hidden", "--seed", "7", "--out", "private"], tmp_path / "data")
    status = subprocess.run([git, "status", "--porcelain", "--untracked-files=all"], capture_output=True, text=True)
    assert status.stdout == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--split", "hidden"], "--split hidden needs an explicit --seed"),
        (["--split", "hidden", "--seed", str(PUBLIC)], f"cannot use the public seed {PUBLIC}"),
        (["--seed", "7"], f"the public split always uses seed {PUBLIC}; use --split hidden for another seed"),
        (["--split", "extended", "--seed", "7", "--out", "x"], "the extended split always uses seed"),
        (["--split", "private"], "invalid choice: 'private'"),
    ],
)
def test_a_split_is_written_only_from_its_own_kind_of_seed(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        generate_split(argv, tmp_path / "data")
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written before the usage error


def test_the_examples_hidden_split_has_its_own_ids_and_answers(tmp_path: Path) -> None:
    main(["--split", "hidden", "--seed", "4242", "--out", str(tmp_path)])
    assert (tmp_path / "tasks.jsonl").read_text(encoding="utf-8") == example_split("hidden", 4242)["tasks.jsonl"]
    hidden, public = generate(4242, prefix="hid-"), generate(SEED)
    assert all(task.id.startswith("hid-") for task in hidden)
    assert [task.prompt for task in hidden] != [task.prompt for task in public]
