"""Shell completion, from the same declarations as --help and the page's forms: what may follow the words typed
so far (`candidates`): a command, a game's query, an option of the command, or a choice of the option before."""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from .. import contract
from .grammar import Command, Opt
from .registry import COMMANDS
from .words import STUDIES, every_command, path_in


def candidates(words: Sequence[str], own: Optional[Mapping[str, Command]] = None) -> list[str]:
    """The words that may complete the last of `words` (the one being typed, "" for a new one), given the ones
    before it; `own`: the shell's own commands beside the library's (the command line's `rules`, `serve` ...)."""
    own = own or {}
    *done, typed = list(words) or [""]
    every_command()
    commands = {**COMMANDS, **own}
    if not done:
        return starting(["roll", *STUDIES, *own, *contract.names()], typed)
    if len(done) == 1 and done[0] in contract.names():
        return starting([path.split()[1] for path in COMMANDS if path.split()[0] == done[0]], typed)
    path = path_in(done, commands)
    if path is None:
        return []
    command = commands[path]
    rest = done[len(command.path.split()):]
    expecting = _expecting(command, rest)
    if expecting is not None:
        return starting([str(member.value) for member in expecting.choices], typed) if expecting.choices else []
    if typed.startswith("-") or not typed:
        given = {word.partition("=")[0] for word in rest}
        return starting([spelling for opt in command.options if not opt.argument
                         and (opt.many or not set(opt.spellings) & given) for spelling in opt.spellings], typed)
    return []


def _expecting(command: Command, rest: Sequence[str]) -> Optional[Opt]:
    """The option whose value the next word is (the last word an option that takes one), if any."""
    if not rest or "=" in rest[-1]:
        return None
    opt = next((opt for opt in command.options if not opt.argument and rest[-1] in opt.spellings), None)
    return opt if opt is not None and opt.kind != "switch" else None


def starting(names: Sequence[str], typed: str) -> list[str]:
    """The names that begin with what is typed, each once, in order."""
    return list(dict.fromkeys(name for name in names if name.startswith(typed)))


BASH = """# oddscalc's completion for bash (and zsh, after `autoload -U bashcompinit && bashcompinit`):
#   eval "$(oddscalc completion)"
_oddscalc() {
    local IFS=$'\\n'
    COMPREPLY=($(oddscalc complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
    if [[ ${#COMPREPLY[@]} -eq 0 ]]; then
        COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
    fi
}
complete -F _oddscalc oddscalc"""
