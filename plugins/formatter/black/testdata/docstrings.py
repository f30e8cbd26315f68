'''Module docstring.'''

def f():
    '''   Docstring with spaces.   '''

def g():
    """
       Multi-line docstring.

         Indented more.
    """
    pass

class A:

    '''Class docstring.'''
    x = 1

class B:
    """Doc"""
    def m(self):
        '''Ends with quote"'''
    def n(self):
        """Ends with backslash\\"""
    def o(self):
        """"""
    def p(self):
        """   """
    def q(self): 'inline'

def long_docstring():
    """This is a long docstring whose last line is going to be long enough to overflow the limit"""

def long_multiline():
    """First line.

    This is a long docstring whose last line is going to be long enough to overflow the limit"""
def tabs():
	"""Tabbed.

	Body with tab.
	"""
