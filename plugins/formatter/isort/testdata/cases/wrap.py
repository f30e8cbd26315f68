from some.very.long.module.name.here import first_function, second_function, third_function_name
from short import a, b, c
from another.module import (alpha, beta,
    gamma)
from x import averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongname_abcdef
from some.module import name_one as alias_one, name_two as alias_two, name_three as alias_three_long
from y import z  # a fairly long trailing comment that pushes the line over the limit ok


class A:
    pass
