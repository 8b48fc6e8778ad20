"""The build's one extra step: the core's hot modules compiled to native code with mypyc,
from the very same Python files, where this machine has a C compiler; where it has none
(or ``CRIBBAGE_CORE=interpreted`` is set), one line says so and the package is the
interpreted files alone, which give the same answers. The modules compiled are listed in
pyproject.toml (``[tool.hatch.build.hooks.custom] compile``).

A wheel carries the compiled modules beside the Python files (Python loads a compiled
module before its source); an editable install (``pip install -e .``) builds them in place,
in the source tree, where the editable install finds the package.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _compiler() -> str | None:
    """The C compiler Python's own build used (or ``CC``), if this machine has it."""
    wanted = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    found = shutil.which(wanted.split()[0])
    return found


class CompiledCore(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        modules: list[str] = list(self.config.get("compile", []))
        if os.environ.get("CRIBBAGE_CORE") == "interpreted":
            self._say("CRIBBAGE_CORE=interpreted: installing the interpreted core only")
            return
        if _compiler() is None:
            self._say("no C compiler here: installing the interpreted core (same answers)")
            return
        try:
            built = self._compile(modules, in_place=version == "editable")
        except Exception as error:  # (any failure of the toolchain: the fallback)
            self._say(f"the core could not be compiled ({error}): installing it interpreted")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # (in place, the editable install finds them already)
            for path in built:
                build_data["force_include"][str(path)] = str(path.relative_to(self._out))

    def _compile(self, modules: list[str], *, in_place: bool) -> list[Path]:
        from mypyc.build import mypycify
        from setuptools import Distribution

        root = Path(self.root)
        work = Path(tempfile.mkdtemp(prefix="cribcli-build-"))
        self._out = root if in_place else work / "lib"
        here = os.getcwd()
        os.chdir(root)  # (mypyc names the modules by their paths from here)
        try:
            extensions = mypycify(modules, opt_level="3", target_dir=str(work / "c"))
            dist = Distribution({"name": "cribcli-core", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(self._out)  # type: ignore[attr-defined]
            command.build_temp = str(work / "temp")  # type: ignore[attr-defined]
            command.ensure_finalized()
            command.run()
            outputs: list[str] = command.get_outputs()  # type: ignore[attr-defined]
        finally:
            os.chdir(here)
        self._say(f"compiled the core's {len(modules)} hot modules to native code (mypyc)")
        return [Path(path) for path in outputs]

    def _say(self, line: str) -> None:
        print(f"cribcli: {line}", file=sys.stderr)
