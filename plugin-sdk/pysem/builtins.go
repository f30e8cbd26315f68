package pysem

import "strings"

// builtins38 are the names of CPython 3.8's builtins module, without the
// module dunders (those are implicit module globals here) but with the
// names site adds and WindowsError (see the package comment).
const builtins38 = `ArithmeticError AssertionError AttributeError BaseException BlockingIOError
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EnvironmentError
Exception False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit
IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError
KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None
NotADirectoryError NotImplemented NotImplementedError OSError OverflowError
PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError
ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError
SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError
UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning
UserWarning ValueError Warning ZeroDivisionError __build_class__ __debug__ __import__ abs all any
ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright
credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr
globals hasattr hash help hex id input int isinstance issubclass iter len license list locals map
max memoryview min next object oct open ord pow print property quit range repr reversed round set
setattr slice sorted staticmethod str sum super tuple type vars zip WindowsError`

// builtinsAdded lists the builtins each minor version added.
var builtinsAdded = map[int]string{
	10: "aiter anext EncodingWarning",
	11: "BaseExceptionGroup ExceptionGroup",
	13: "PythonFinalizationError _IncompleteInputError",
}

var builtinTables = func() [15]map[string]bool {
	var t [15]map[string]bool
	base := strings.Fields(builtins38)
	for minor := 0; minor < len(t); minor++ {
		m := make(map[string]bool, len(base)+8)
		for _, n := range base {
			m[n] = true
		}
		for v := 9; v <= minor; v++ {
			for _, n := range strings.Fields(builtinsAdded[v]) {
				m[n] = true
			}
		}
		t[minor] = m
	}
	return t
}()

func normMinor(minor int) int {
	switch {
	case minor <= 0:
		return DefaultPythonMinor
	case minor < 8:
		return 8
	case minor > 14:
		return 14
	}
	return minor
}

// Builtins returns the builtin names of Python 3.minor (0: the default
// version; clamped to 3.8..3.14). The map is shared: do not modify it.
func Builtins(minor int) map[string]bool { return builtinTables[normMinor(minor)] }

// IsBuiltin reports whether name is a builtin for the module's version.
func (m *Module) IsBuiltin(name string) bool { return m.builtins[name] }

// moduleImplicit are the names every module has without binding them.
var moduleImplicit = map[string]bool{
	"__name__": true, "__file__": true, "__doc__": true, "__builtins__": true, "__spec__": true,
	"__loader__": true, "__package__": true, "__cached__": true, "__annotations__": true,
}
