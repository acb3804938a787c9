"""The words of a query: one grammar, owned by the library.

- `grammar`: an option declared once (`Opt`), a command (`Command`) and the one parser of their words;
- `registry`: every query, look and study by path (`COMMANDS`, `QUERIES`, `ABOUT`);
- `common`: the options every query and study takes (`Common`, `Study`);
- `words`: which command words ask for, and a study's quoted queries;
- `answer`: what a command answers (`Answer`), before a shell shows it;
- `help`: a command's --help, from its declaration;
- `studies`, `grids`, `balancing`, `dice`: the commands that are not a game's.

`oddscalc.ask` reads words with it; the command line and the page are two shells over it, and nothing
here imports either."""
