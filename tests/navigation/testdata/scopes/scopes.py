"""Scopes, global/nonlocal, del, comprehensions, lambdas; strings and comments never count."""
import os  #@ os:r:os

counter = 0  #@ counter:d:counter counter->tmp:ok counter->value:conflict
value = "counter"  #@ value:d:value


def bump(step: int = 1) -> int:  #@ bump:d:bump step:d:step int:builtin
    global counter  #@ counter:r:counter
    counter += step  #@ counter:r:counter step:r:step
    return counter  #@ counter:r:counter


def outer():  #@ outer:d:outer
    total = 0  #@ total:d:total total->inner:conflict total->bump:conflict total->os:conflict total->Config:conflict total->tmp:ok total->step:ok

    def inner(x):  #@ inner:d:inner x:d:ix x->total:conflict x->squares:conflict x->read:ok x->sides:ok
        nonlocal total  #@ total:r:total
        total = total + x  #@ total:d:total total@2:r:total x:r:ix
        return total  #@ total:r:total

    squares = [x * x for x in range(3)]  #@ squares:d:squares x:r:cx x@2:r:cx x@3:d:cx
    f = lambda x: x + total  #@ f:d:lf x:d:lx x@2:r:lx total:r:total x->squares:conflict x->counter:conflict
    inner(f(1))  #@ inner:r:inner f:r:lf
    return squares  #@ squares:r:squares


class Config:  #@ Config:d:Config
    counter = 10  #@ counter:d:ccounter

    def read(self):  #@ read:d:read self:d:self self->value:conflict self->dropper:conflict self->total:ok
        # counter in a method is the global one, not the class attribute
        return counter + self.counter  #@ counter:r:counter self:r:self counter@2:r:ccounter


def dropper():  #@ dropper:d:dropper
    tmp = os.getcwd()  #@ tmp:d:tmp os:r:os tmp->total:ok tmp->step:ok tmp->Config:conflict tmp->os:conflict
    del tmp  #@ tmp:r:tmp
    print("tmp counter bump")  # tmp counter bump  #@ print:builtin


bump()  #@ bump:r:bump
outer()  #@ outer:r:outer
