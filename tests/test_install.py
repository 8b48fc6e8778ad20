"""The package as a user gets it: build the wheel, install it in a fresh virtual
environment, and run the command from there. A missing file or dependency fails here."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from cribcli import __version__
from cribcli.players.habits import Style
from tests.scripted import moves

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_fresh_install(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True,
    )
    (wheel,) = dist.glob("cribcli-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(name.endswith("data/share/man/man1/cribbage.1") for name in names)
    assert "cribcli/py.typed" in names
    tables = {style.crib_table for style in Style} - {None}
    for table in ("pegs.json", *sorted(str(name) for name in tables), "deal_points.json"):
        assert f"cribcli/players/data/{table}" in names
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True)
    cribbage = env_dir / "bin" / "cribbage"
    version = subprocess.run([cribbage, "--version"], capture_output=True, text=True, check=True)
    core = "compiled" if any(name.endswith(".so") for name in names) else "interpreted"
    assert version.stdout.strip() == f"cribbage, version {__version__} ({core} core)"
    assert core == "compiled"  # (this machine has a C compiler: the hot modules are native)
    scored = subprocess.run(
        [cribbage, "score", "5H", "5S", "JD", "4C", "--starter", "5D"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert scored.stdout.rstrip().endswith("total 15")
    played = subprocess.run(
        [cribbage, "play", "--seed", "7", "--data-dir", str(tmp_path / "home")],
        input="\n".join(moves(7)) + "\n",
        capture_output=True,
        text=True,
    )
    assert played.returncode == 0, played.stderr
    assert "The game's log is in" in played.stdout
    assert (env_dir / "share" / "man" / "man1" / "cribbage.1").exists()


@pytest.mark.slow
def test_the_source_distribution_holds_what_its_tests_need(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("cribcli-*.tar.gz")
    import tarfile

    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("LICENSE", "README.md", "docs/game-log.md", "man/cribbage.1"):
        assert needed in names
    # every file a test opens by a path into the source tree is shipped with it
    for tool in (ROOT / "tools").glob("*.py"):
        assert f"tools/{tool.name}" in names


@pytest.mark.slow
def test_without_a_c_compiler_the_core_is_installed_interpreted(tmp_path: Path) -> None:
    """No compiler: one line says so, and the wheel is the Python files alone, which
    give the same answers."""
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(dist), str(ROOT)],
        env={**os.environ, "CC": "no-such-compiler"},
        capture_output=True,
        text=True,
        check=True,
    )
    lines = (line.strip() for line in (built.stdout + built.stderr).splitlines())
    said = [line for line in lines if line.startswith("cribcli:")]
    assert said == ["cribcli: no C compiler here: installing the interpreted core (same answers)"]
    (wheel,) = dist.glob("cribcli-*-py3-none-any.whl")
    assert not any(name.endswith(".so") for name in zipfile.ZipFile(wheel).namelist())
