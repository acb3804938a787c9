"""The oddscalc command line: a thin shell over the library's query grammar (`oddscalc.query`).

Where things are: `main.py` runs the command line: a library command's words (a query, a look, a
study) are read by the grammar, asked of the library (`oddscalc.ask`) and shown (`output.py`), with
the command line's own options (`options.Shell`) and its exit codes; `commands.py` is the root Click
command that lists them in --help and holds the command line's own commands (`rules`, and
`profiles` and `import` in `rosters.py`, `serve` in `serve.py`); `errors.py` has the signals and
the one-line errors of Click's parsing of those.
"""

from ..core.lazy import exports
from .main import main as main, run as run

_WHERE = {"STUDIES": "commands", "app": "commands", "root_command": "commands"}
__all__ = sorted([*_WHERE, "main", "run"])
__getattr__, __dir__ = exports(__name__, _WHERE)  # Click's app when asked for: a query's answer imports none
