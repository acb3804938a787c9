"""A game of one query, as a game package's `commands` module declares it (tests/cli/test_games_group.py)."""

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Toy: one query.")


@app.command("shoot")
def shoot(dice: int = 1) -> None:
    """Roll some dice."""
    print(f"toy shoot {dice}")
