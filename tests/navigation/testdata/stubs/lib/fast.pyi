def compute(n: int) -> int: ...  #@ compute:d:compute n:d:n int:builtin int@2:builtin
