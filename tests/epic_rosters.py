"""Epic roster texts the tests share: one formation of Marines with its missiles, to which a test adds its own."""

MARINES = '''
game = "epic"

[[unit]]
name = "Marines"
points = 300
kind = "infantry"
units = 6
armour = "4+"

[[unit.weapon]]
name = "Missiles"
shots = 6
'''
