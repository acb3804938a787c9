"""The oddscalc command line (Typer): parse, ask the library, render.

Where things are: `commands.py` is the root command (each game's commands, and the
studies', imported only when one of them runs or --help lists them); `options.py` declares
the common options and the registry of queries; `words.py` reads a query's words as the
library's call (`oddscalc.ask`) takes them; `main.py` runs the command line (its own
options, the exit codes); `output.py` prints answers and plots; `errors.py` the one-line
errors; `studies.py` and `rosters.py` the sweep, compare, grid, profiles and import
commands. Each game's commands are in its own package (`oddscalc/<game>/commands.py`).
"""

from .commands import STUDIES, app, lazy_module, root_command
from .main import main, run

__all__ = ["STUDIES", "app", "lazy_module", "main", "root_command", "run"]
