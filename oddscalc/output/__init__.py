"""What a player reads: one table and how each format draws it (`table`), the tables of answers and rows
(`tables`), an answer in a sentence (`sentence`), plots (`plots`, `plot_axes`, `plot_rounds`), the words of
numbers and lists (`style`) and the rules reference (`rules`)."""
