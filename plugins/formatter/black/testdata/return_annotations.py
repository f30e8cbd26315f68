def foo() -> tuple[int, int, int,]:
    return 2
def foo() -> tuple[loooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooong]:
    return 2
def xxxxxxxxxxxxxxxxxxxxxxxxxxxx() -> Set["Muy", "Long", "Annotation", "Goes", "Here", "Ok", "yes"]:
    pass
def f(a,) -> int:
    pass
def double(a: int) -> (int):
    return 2*a
def long_args(argument_one: int, argument_two: str, argument_three: float) -> Optional[Dict[str, int]]:
    pass
async def async_long(argument_one: int, argument_two: str, argument_three: float) -> Optional[int]:
    pass
def very_long_function_name_without_any_arguments_but_with_a_return_type_annotation() -> None:
    pass
