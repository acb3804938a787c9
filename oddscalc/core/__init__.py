"""The engine, which knows no game and no shell: the rules of a roll (`dice`, `terms`), kept and summed totals
(`totals`, `pool`), the pmf algebra (`pmf`), a distribution and a run's result (`distribution`, `result`),
running an attack exact or sampled (`engine`, `sampling`, `keyed`), the run's options (`options`), the attack
protocol (`attack`) and the game-free attacks (`roll`, `hits`); what a shell gives a query beside its words
(`given`) and the files those may name, read within their caps and written whole (`files`); `lazy` lets a package
import its names on first use."""
