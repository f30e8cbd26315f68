package rules

import (
	"strings"
	"sync"
)

// Standard-library signatures for missing-argument and type-mismatch,
// transcribed from typeshed (the stubs pyright uses), keeping only what is
// certain across Python 3.8-3.14: where typeshed has overloads, the
// parameters are the union of them (a parameter required by one overload
// only gets a default), and a parameter type is given only when it is a
// set of builtin kinds typeshed rejects everything else for (a protocol
// such as SupportsIndex becomes the builtin kinds that implement it).
// "= ..." marks a default; "/" and "*" as in Python; a parameter without
// a type is not checked. Type aliases used below:
//
//	Index    int | bool                        (SupportsIndex)
//	Float    int | float | bool                (SupportsFloat | SupportsIndex)
//	Number   int | float | complex | bool      (SupportsAbs)
//	Path     str | bytes                       (StrOrBytesPath; PathLike objects are not literals)
//	FdPath   int | str | bytes                 (FileDescriptorOrPath)
//	Buffer   bytes | bytearray                 (ReadableBuffer)
//	Sized    str | bytes | bytearray | list | dict | set | frozenset | tuple
//	Iterable same as Sized
//	Seq      str | bytes | bytearray | list | tuple | dict   (SupportsLenAndGetItem; dict kept: never reported)
var stdSigSource = map[string]string{
	"builtins.len":        "(obj: Sized, /)",
	"builtins.abs":        "(x: Number, /)",
	"builtins.chr":        "(i: Index, /)",
	"builtins.ord":        "(c: str | bytes | bytearray, /)",
	"builtins.hex":        "(number: Index, /)",
	"builtins.oct":        "(number: Index, /)",
	"builtins.bin":        "(number: Index, /)",
	"builtins.sorted":     "(iterable: Iterable, /, *, key = ..., reverse: bool = ...)",
	"builtins.sum":        "(iterable: Iterable, /, start = ...)",
	"builtins.round":      "(number: Float, ndigits = ...)",
	"builtins.isinstance": "(obj, class_or_tuple, /)",
	"builtins.issubclass": "(cls, class_or_tuple, /)",
	"builtins.getattr":    "(o, name: str, default = ..., /)",
	"builtins.setattr":    "(obj, name: str, value, /)",
	"builtins.hasattr":    "(obj, name: str, /)",
	"builtins.delattr":    "(obj, name: str, /)",
	"builtins.callable":   "(obj, /)",
	"builtins.repr":       "(obj, /)",
	"builtins.hash":       "(obj, /)",
	"builtins.id":         "(obj, /)",
	"builtins.open":       "(file: FdPath, mode: str = ..., buffering: int = ..., encoding: str | None = ..., errors: str | None = ..., newline: str | None = ..., closefd: bool = ..., opener = ...)",
	"builtins.enumerate":  "(iterable: Iterable, start: int = ...)",
	"builtins.range":      "(start_or_stop: Index, stop: Index = ..., step: Index = ..., /)",
	"builtins.print":      "(*values, sep: str | None = ..., end: str | None = ..., file = ..., flush = ...)",

	"math.sqrt":      "(x: Float, /)",
	"math.exp":       "(x: Float, /)",
	"math.log":       "(x: Float, base: Float = ..., /)",
	"math.log2":      "(x: Float, /)",
	"math.log10":     "(x: Float, /)",
	"math.log1p":     "(x: Float, /)",
	"math.floor":     "(x: Float, /)",
	"math.ceil":      "(x: Float, /)",
	"math.trunc":     "(x: Float, /)",
	"math.fabs":      "(x: Float, /)",
	"math.isnan":     "(x: Float, /)",
	"math.isinf":     "(x: Float, /)",
	"math.isfinite":  "(x: Float, /)",
	"math.sin":       "(x: Float, /)",
	"math.cos":       "(x: Float, /)",
	"math.tan":       "(x: Float, /)",
	"math.radians":   "(x: Float, /)",
	"math.degrees":   "(x: Float, /)",
	"math.pow":       "(x: Float, y: Float, /)",
	"math.atan2":     "(y: Float, x: Float, /)",
	"math.copysign":  "(x: Float, y: Float, /)",
	"math.fmod":      "(x: Float, y: Float, /)",
	"math.factorial": "(x: Index, /)",
	"math.isqrt":     "(n: Index, /)",
	"math.comb":      "(n: Index, k: Index, /)",
	"math.isclose":   "(a: Float, b: Float, *, rel_tol: Float = ..., abs_tol: Float = ...)",
	"math.fsum":      "(seq: Iterable, /)",

	"os.getenv":          "(key: str, default = ...)",
	"os.remove":          "(path: Path, *, dir_fd = ...)",
	"os.unlink":          "(path: Path, *, dir_fd = ...)",
	"os.rmdir":           "(path: Path, *, dir_fd = ...)",
	"os.mkdir":           "(path: Path, mode: int = ..., *, dir_fd = ...)",
	"os.makedirs":        "(name: Path, mode: int = ..., exist_ok: bool = ...)",
	"os.rename":          "(src: Path, dst: Path, *, src_dir_fd = ..., dst_dir_fd = ...)",
	"os.chdir":           "(path: FdPath)",
	"os.path.join":       "(a: Path, /, *paths: Path)",
	"os.path.exists":     "(path: FdPath)",
	"os.path.isfile":     "(path: FdPath)",
	"os.path.isdir":      "(s: FdPath)",
	"os.path.getsize":    "(filename: FdPath)",
	"os.path.basename":   "(p: Path)",
	"os.path.dirname":    "(p: Path)",
	"os.path.abspath":    "(path: Path)",
	"os.path.splitext":   "(p: Path)",
	"os.path.split":      "(p: Path)",
	"os.path.expanduser": "(path: Path)",
	"os.path.normpath":   "(path: Path)",

	"json.loads": "(s: str | bytes | bytearray, **kwds)",
	"json.dumps": "(obj, *, skipkeys: bool = ..., ensure_ascii: bool = ..., check_circular: bool = ..., allow_nan: bool = ..., cls = ..., indent: None | int | str = ..., separators = ..., default = ..., sort_keys: bool = ..., **kwds)",
	"json.load":  "(fp, **kwds)",
	"json.dump":  "(obj, fp, *, skipkeys: bool = ..., ensure_ascii: bool = ..., check_circular: bool = ..., allow_nan: bool = ..., cls = ..., indent: None | int | str = ..., separators = ..., default = ..., sort_keys: bool = ..., **kwds)",

	"time.sleep": "(secs: Float, /)",

	"re.compile":   "(pattern: Path, flags: int = ...)",
	"re.match":     "(pattern: Path, string: Path, flags: int = ...)",
	"re.search":    "(pattern: Path, string: Path, flags: int = ...)",
	"re.fullmatch": "(pattern: Path, string: Path, flags: int = ...)",
	"re.findall":   "(pattern: Path, string: Path, flags: int = ...)",
	"re.finditer":  "(pattern: Path, string: Path, flags: int = ...)",
	"re.split":     "(pattern: Path, string: Path, maxsplit: int = ..., flags: int = ...)",
	"re.sub":       "(pattern: Path, repl, string: Path, count: int = ..., flags: int = ...)",
	"re.subn":      "(pattern: Path, repl, string: Path, count: int = ..., flags: int = ...)",
	"re.escape":    "(pattern: Path)",

	"shutil.copy":     "(src: Path, dst: Path, *, follow_symlinks: bool = ...)",
	"shutil.copy2":    "(src: Path, dst: Path, *, follow_symlinks: bool = ...)",
	"shutil.copyfile": "(src: Path, dst: Path, *, follow_symlinks: bool = ...)",
	"shutil.move":     "(src: Path, dst: Path, copy_function = ...)",
	"shutil.which":    "(cmd: Path, mode: int = ..., path = ...)",

	"subprocess.run":          "(args, *rest, **kwds)",
	"subprocess.call":         "(args, *rest, **kwds)",
	"subprocess.check_call":   "(args, *rest, **kwds)",
	"subprocess.check_output": "(args, *rest, **kwds)",
	"subprocess.Popen":        "(args, *rest, **kwds)",

	"random.randint": "(a: Index, b: Index)",
	"random.uniform": "(a: Float, b: Float)",
	"random.choice":  "(seq: Seq)",

	"collections.namedtuple": "(typename: str, field_names: str | bytes | list | tuple | set | frozenset | dict, *, rename: bool = ..., module = ..., defaults = ...)",

	"base64.b64encode": "(s: Buffer, altchars = ...)",
	"base64.b64decode": "(s: str | bytes | bytearray, altchars = ..., validate: bool = ...)",
	"hashlib.md5":      "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
	"hashlib.sha1":     "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
	"hashlib.sha224":   "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
	"hashlib.sha256":   "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
	"hashlib.sha384":   "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
	"hashlib.sha512":   "(string: Buffer = ..., *, usedforsecurity: bool = ...)",
}

var typeAliases = map[string]string{
	"Index":    "int | bool",
	"Float":    "int | float | bool",
	"Number":   "int | float | complex | bool",
	"Path":     "str | bytes",
	"FdPath":   "int | str | bytes",
	"Buffer":   "bytes | bytearray",
	"Sized":    "str | bytes | bytearray | list | dict | set | frozenset | tuple",
	"Iterable": "str | bytes | bytearray | list | dict | set | frozenset | tuple",
	"Seq":      "str | bytes | bytearray | list | tuple | dict",
}

var (
	stdSigsOnce sync.Once
	stdSigs     map[string]*signature
	// stdSigLasts holds the last segment of every name in stdSigs.
	stdSigLasts map[string]bool
)

// maybeStdSignature reports whether a dotted name ending in last can have
// a signature in the table, so callers skip building names that cannot.
func maybeStdSignature(last []byte) bool {
	stdSigsOnce.Do(loadStdSigs)
	return stdSigLasts[string(last)]
}

// stdSignature returns the table's signature of a dotted name.
func stdSignature(q string, minor int) *signature {
	stdSigsOnce.Do(loadStdSigs)
	if s, ok := stdSigs[q]; ok {
		// Copy: callers may not modify the shared table.
		cp := *s
		return &cp
	}
	return nil
}

func loadStdSigs() {
	stdSigs = map[string]*signature{}
	stdSigLasts = map[string]bool{}
	for name, src := range stdSigSource {
		sig, ok := parseSig(src)
		if !ok {
			panic("stdsigs: bad signature of " + name)
		}
		sig.name = name[strings.LastIndexByte(name, '.')+1:]
		if strings.HasPrefix(name, "builtins.") {
			sig.name = strings.TrimPrefix(name, "builtins.")
		} else {
			sig.name = name
		}
		stdSigs[name] = sig
		stdSigLasts[name[strings.LastIndexByte(name, '.')+1:]] = true
	}
}

// parseSig parses the signature mini-language of stdSigSource.
func parseSig(src string) (*signature, bool) {
	src = strings.TrimSpace(src)
	if !strings.HasPrefix(src, "(") || !strings.HasSuffix(src, ")") {
		return nil, false
	}
	sig := &signature{}
	kwonly := false
	for _, part := range strings.Split(src[1:len(src)-1], ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "":
			continue
		case "/":
			for i := range sig.params {
				if sig.params[i].kind == posOrKw {
					sig.params[i].kind = posOnly
				}
			}
			continue
		case "*":
			kwonly = true
			continue
		}
		var p param
		p.kind = posOrKw
		if kwonly {
			p.kind = kwOnly
		}
		if rest, ok := strings.CutPrefix(part, "**"); ok {
			p.kind, part = varKw, rest
		} else if rest, ok := strings.CutPrefix(part, "*"); ok {
			p.kind, part, kwonly = varPos, rest, true
		}
		if head, _, ok := strings.Cut(part, "="); ok {
			p.hasDefault = true
			part = strings.TrimSpace(head)
		}
		name, t, hasType := strings.Cut(part, ":")
		p.name = strings.TrimSpace(name)
		if hasType {
			for _, k := range strings.Split(t, "|") {
				k = strings.TrimSpace(k)
				if alias, ok := typeAliases[k]; ok {
					for _, a := range strings.Split(alias, "|") {
						p.typ |= typ(kindByName(strings.TrimSpace(a)))
					}
					continue
				}
				kk := kindByName(k)
				if kk == 0 {
					return nil, false
				}
				p.typ |= typ(kk)
			}
		}
		sig.params = append(sig.params, p)
	}
	return sig, true
}
