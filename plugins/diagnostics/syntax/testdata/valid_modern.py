if x:
	pass
match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case _:
        pass
try:
    pass
except* ValueError:
    pass
finally:
    pass
x = lambda: (yield)
