package rules

//go:generate /usr/bin/python3 gen_stdlib.py

// Standard-library top-level modules per target version: the 3.11 list
// generated from the real sys.stdlib_module_names (stdlib_modules.go),
// adjusted by these differences, checked against the
// sys.stdlib_module_names of CPython 3.10.13, 3.12.1 and 3.13.0 and, for
// 3.8/3.9 (which predate the attribute), against pkgutil.iter_modules over
// their stdlib directories and sys.builtin_module_names. 3.14's additions
// come from its "What's New".
var stdlibDiffs = []struct {
	minor          int // the version that added/removed them
	added, removed []string
}{
	{9, []string{"_aix_support", "_bootsubprocess", "_peg_parser", "_zoneinfo", "graphlib", "zoneinfo"}, []string{"_dummy_thread", "dummy_threading"}},
	{10, nil, []string{"_peg_parser", "formatter", "parser", "symbol"}},
	{11, []string{"_tokenize", "_typing", "tomllib"}, []string{"binhex"}},
	{12, []string{"_pydatetime", "_pylong", "_sha2"}, []string{"_bootsubprocess", "_sha256", "_sha512", "asynchat", "asyncore", "distutils", "imp", "smtpd"}},
	{13, []string{"_android_support", "_colorize", "_interpchannels", "_interpqueues", "_interpreters", "_ios_support", "_opcode_metadata", "_pyrepl", "_suggestions", "_sysconfig", "_wmi"},
		[]string{"_crypt", "_msi", "aifc", "audioop", "cgi", "cgitb", "chunk", "crypt", "imghdr", "lib2to3", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes", "sndhdr", "spwd", "sunau", "telnetlib", "uu", "xdrlib"}},
	{14, []string{"annotationlib", "compression", "_zstd"}, nil},
}

var stdlibTables = map[int]map[string]bool{}

func init() {
	base := map[string]bool{}
	for _, n := range stdlib311 {
		base[n] = true
	}
	stdlibTables[11] = base
	// Walk down from 3.11: undo each version's changes.
	cur := base
	for minor := 11; minor > 8; minor-- {
		next := clone(cur)
		for _, d := range stdlibDiffs {
			if d.minor == minor {
				for _, n := range d.added {
					delete(next, n)
				}
				for _, n := range d.removed {
					next[n] = true
				}
			}
		}
		stdlibTables[minor-1] = next
		cur = next
	}
	cur = base
	for minor := 12; minor <= 14; minor++ {
		next := clone(cur)
		for _, d := range stdlibDiffs {
			if d.minor == minor {
				for _, n := range d.added {
					next[n] = true
				}
				for _, n := range d.removed {
					delete(next, n)
				}
			}
		}
		stdlibTables[minor] = next
		cur = next
	}
}

func clone(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+16)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// IsStdlib reports whether top is a top-level standard-library module of
// Python 3.minor (8-14; other values are clamped). `__main__`, the program
// being run, is not in sys.stdlib_module_names but always importable (and
// typeshed stubs it, so type checkers resolve it).
func IsStdlib(top string, minor int) bool {
	if top == "__main__" {
		return true
	}
	minor = max(8, min(14, minor))
	return stdlibTables[minor][top]
}
