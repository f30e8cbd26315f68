def greet(name, greeting="hi"):
    return greeting + name


greet(greeting="hello", "Ada")
greet(**{"greeting": "hey"}, *["Bob"])


class Shout(metaclass=type, object):
    pass
