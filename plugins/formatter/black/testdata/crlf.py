x=1
def f():
  return 2
