def f(items):
    for i, item in enumerate(items):
        if item:
            found = item
            break
    else:
        found = None
    with open(found) as fh:
        data = fh.read()
    print(data, later)
    later = 1
    match data:
        case [first, *rest]:
            return first, rest
        case {"k": value}:
            return value
    return (y := len(data)), y
