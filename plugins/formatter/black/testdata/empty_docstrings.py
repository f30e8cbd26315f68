def f():
    ""
    return
def g():
    """"""
def h():
    """ """
def i():
    """"""
    x = 1
