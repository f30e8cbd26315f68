with (open(a) as f, open(b) as g):
    match f:
        case [1, *rest]:
            pass
