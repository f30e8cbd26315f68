# fix: missing-argument
def area(w: float, h: float) -> float:
    return w * h


def box(w: float, *, depth: float, label: str = "") -> str:
    return label


area()  # want "missing-argument:missing arguments 'w', 'h' in call to 'area'"
area(3)  # want "missing-argument:missing argument 'h' in call to 'area'"
area(3,)  # want "missing-argument:missing argument 'h' in call to 'area'"
box(1, label="x")  # want "missing-argument:missing argument 'depth' in call to 'box'"
box(  # want "missing-argument:missing argument 'depth' in call to 'box'"
    1,  # the width
)
len()  # want "missing-argument:missing argument 'obj' in call to 'len'"
