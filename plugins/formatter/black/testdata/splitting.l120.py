def very_long_function_name(argument_one, argument_two, argument_three, argument_four, arg5):
    pass
result = some_function_name(argument_number_one, argument_number_two, argument_three)[0]
value = some.attribute.access.chain.that_is_long().and_more_calls().and_even_more_calls_here()
if some_condition and some_other_condition or yet_another_condition and the_final_condition_x:
    pass
x = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
call_with_many_arguments(first_argument, second_argument, third_argument, fourth_argument, 5)
nested = outer_function(inner_function(argument_one, argument_two), another_inner(argument_three))
return_value = {"key_one": value_one, "key_two": value_two, "key_three": value_three, "k": 4}
magic = [1, 2, 3,]
magic_call = foo(a, b,)
tuple_one = (1,)
subscript_one = x[1,]
def f(a,):
    return a
def g(*, a, b,):
    pass
with open("some/very/long/path/to/a/file/name.txt") as f, open("another/long/path.txt") as g:
    pass
for element_with_long_name in collection_with_a_very_long_name_that_goes_on_and_on_and_on_x:
    pass
assert some_function(argument) == expected_value_that_is_long, "the message that is shown"
del very_long_variable_name_one, very_long_variable_name_two, very_long_variable_name_3
print("hello world", file=sys.stderr, end="", sep="-----------------------------------")
zero(one,).two(three,).four(five,)
def xxxxxxxxxxxxxxxxxxxxxxxxxxxx() -> Set["Muy", "Long", "Annotation", "Goes", "Here", "Ok"]:
    pass
def xxxxxxxxxxxxxxxxxxxxxxxxxxxx(a, b) -> Set["Muy", "Long", "Annotation", "Goes", "Here", "Ok"]:
    pass
if x:
    return_value = session.query(models.Customer.id).filter(models.Customer.account_id == 10000, models.Customer.email == email_address,).count()
parser.add_argument("--flag", action="store_true", default=False, help="some helpful text here")
this_is_a_very_long_variable_name_for_testing = another_long_function_name_for_testing(x)
value = not_shareables[0] if some_condition_that_is_long else default_values_that_are_long[0]
from a_very_long_module_name.another_long_submodule import first_name, second_name, third_name
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = bbbbbbbbbbbbbbbbbbbbb.cc
print("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
x = [element_one_long_name, element_two_long_name, element_three_long_name, element_4]
y = [i * 2 for i in range(100) if i % 3 == 0 and i % 5 == 0 and i % 7 == 0 and i > 10]
