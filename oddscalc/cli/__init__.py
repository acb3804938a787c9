"""The oddscalc command line: a thin shell over the library's query grammar (`oddscalc.query`).

Where things are: `main.py` runs the command line: a library command's words (a query, a look, a
study) are read by the grammar, asked of the library (`oddscalc.ask`) and shown (`output.py`), with
the command line's own options (`options.Shell`) and its exit codes; `commands.py` is the root Click
command that lists them in --help and holds the command line's own commands (`rules`, and
`profiles` and `import` in `rosters.py`, `serve` in `serve.py`); `errors.py` has the signals and
the one-line errors of Click's parsing of those.
"""

from .commands import STUDIES, app, root_command
from .main import main, run

__all__ = ["STUDIES", "app", "main", "root_command", "run"]
