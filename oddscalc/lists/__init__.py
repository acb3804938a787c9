"""Army lists: a roster's schema and units (`roster`), each game's rosters and bundled examples (`games`), and
BattleScribe and New Recruit lists and catalogues (`battlescribe`)."""
