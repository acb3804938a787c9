"""A package's names imported on first use (lazy.py, PEP 562): `import oddscalc` costs nothing until a name is
asked for, then the name's own module is imported, once, and the name kept in the package."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from oddscalc.core.lazy import exports


def test_a_name_is_imported_from_its_module_when_first_asked_for_and_kept():
    getattr_, dir_ = exports("oddscalc", {"Roll": "core.roll", "missing": "core.roll"})
    from oddscalc.core.roll import Roll

    assert getattr_("Roll") is Roll and vars(sys.modules["oddscalc"])["Roll"] is Roll  # kept in the package
    with pytest.raises(AttributeError, match="module 'oddscalc' has no attribute 'nothing'"):
        getattr_("nothing")
    with pytest.raises(AttributeError):
        getattr_("missing")  # named, but its module has no such name
    assert {"Roll", "missing"} <= set(dir_()) and dir_() == sorted(dir_())


def test_importing_oddscalc_imports_no_game_and_no_numpy_until_asked():
    code = ("import sys, oddscalc; print(sorted(m for m in sys.modules if m.startswith(('oddscalc.', 'numpy')))); "
            "oddscalc.Roll; print('oddscalc.core.roll' in sys.modules)")
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    loaded = ast.literal_eval(said[0])
    assert not any(name.startswith(("numpy", "oddscalc.dust", "oddscalc.epic", "oddscalc.t9a")) for name in loaded)
    assert said[1] == "True"


def test_a_deferred_module_is_imported_when_a_name_of_it_is_first_read():
    import subprocess
    import sys

    code = ("import sys\nfrom oddscalc.core.lazy import Deferred\ncolours = Deferred('colorsys')\n"
            "print('colorsys' in sys.modules)\nhsv = colours.rgb_to_hsv(1.0, 0.0, 0.0)\n"
            "print('colorsys' in sys.modules, colours.rgb_to_hsv is sys.modules['colorsys'].rgb_to_hsv, hsv)\n"
            "print('rgb_to_hsv' in vars(colours))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["False", "True True (0.0, 1.0, 1.0)", "True"]  # then read as the module itself, its names copied
