import os
x = {  'a':37,'b':42,
'c':927}
y = 'hello ''world'
class Foo  (     object  ):
  def f    (self   ):
    return       37*-+2
  def g(self, a, b = 1, *args, **kwargs):
      '''   Docstring.   '''
      return (a)
def long_function_name(argument_one, argument_two, argument_three, argument_four, arg5):
    if (argument_one):
        print(u'x', 0XFF, 1E5)
    for (i) in range(10): pass
    return argument_one, argument_two,
