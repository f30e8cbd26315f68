package navigation

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/index"
)

// SigMarker is one `#@sig CHAR SIG PARAM LABEL` (or `#@sig CHAR -`)
// marker of a signature-help fixture.
type SigMarker struct {
	Line, Char    int
	None          bool
	Active, Param int
	Label         string
}

// SigMarkers reads the markers of a fixture.
func SigMarkers(t testing.TB, src string) []SigMarker {
	var out []SigMarker
	for i, line := range strings.Split(src, "\n") {
		_, spec, ok := strings.Cut(line, "#@sig ")
		if !ok {
			continue
		}
		fields := strings.SplitN(spec, " ", 4)
		m := SigMarker{Line: i}
		var err error
		if m.Char, err = strconv.Atoi(fields[0]); err != nil || len(fields) < 2 {
			t.Fatalf("line %d: bad marker %q", i+1, spec)
		}
		if fields[1] == "-" {
			m.None = true
			out = append(out, m)
			continue
		}
		if len(fields) < 4 {
			t.Fatalf("line %d: bad marker %q", i+1, spec)
		}
		m.Active, _ = strconv.Atoi(fields[1])
		m.Param, _ = strconv.Atoi(fields[2])
		m.Label = fields[3]
		out = append(out, m)
	}
	return out
}

// TestSignatureHelpMarkers checks the signature help at each marker of
// testdata/signatures (user functions, methods, constructors, overloads,
// builtins and the standard library, keywords, *args, a nested call and
// a call left unclosed at the end of the file).
func TestSignatureHelpMarkers(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "signatures"))
	x := newTestIndex(t, root, "")
	abs := filepath.Join(root, "calls.py")
	src, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range SigMarkers(t, string(src)) {
		sh := x.SignatureHelp(context.Background(), abs, m.Line, m.Char)
		where := "calls.py:" + strconv.Itoa(m.Line+1) + ":" + strconv.Itoa(m.Char)
		if m.None {
			if len(sh.Signatures) > 0 {
				t.Errorf("%s: %d signatures, want none", where, len(sh.Signatures))
			}
			continue
		}
		if len(sh.Signatures) == 0 {
			t.Errorf("%s: no signature, want %s", where, m.Label)
			continue
		}
		got := sigText(sh)
		want := strconv.Itoa(m.Active) + " " + strconv.Itoa(m.Param) + " " + m.Label
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", where, got, want)
		}
	}
}

func sigText(sh index.SignatureHelp) string {
	label := ""
	if sh.ActiveSignature < len(sh.Signatures) {
		label = sh.Signatures[sh.ActiveSignature].Label
	}
	return strconv.Itoa(sh.ActiveSignature) + " " + strconv.Itoa(sh.ActiveParameter) + " " + label
}

// TestSignatureHelpAsPyright checks rules learned from pyright's answers
// on real projects (tests/differential/pyright): a constructor's
// unannotated parameter shows its argument's type, a plain function's
// does not; a union callee helps with its members' signatures.
func TestSignatureHelpAsPyright(t *testing.T) {
	root := t.TempDir()
	src := `import re
class Field:
    def __init__(self, form, name, first):
        self.form = form
def plain(form, name):
    return name
Field(1, "a", True)
plain(1, "a")
def pick(flag: bool):
    text = "a" if flag else re.split(",", "a,b")[0]
    return text.strip("x")
`
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	x := newTestIndex(t, root, "")
	abs := filepath.Join(root, "m.py")
	for _, c := range []struct {
		line, char int
		want       string
	}{
		{6, 6, "0 0 (form: int, name: str, first: bool) -> Field"},
		{7, 6, "0 0 (form: Unknown, name: Unknown) -> Unknown"},
		{10, 22, "1 0 (chars: str | None = None, /) -> str"},
	} {
		if got := sigText(x.SignatureHelp(context.Background(), abs, c.line, c.char)); got != c.want {
			t.Errorf("m.py:%d:%d:\n got %s\nwant %s", c.line+1, c.char, got, c.want)
		}
	}
}

// TestKeywordHoverOwnCall: a keyword argument of a callee that declares
// no such parameter hovers with the value its own call passes, not the
// first alike call's (summaries share one callee expression among them).
func TestKeywordHoverOwnCall(t *testing.T) {
	root := t.TempDir()
	src := "def kw(**opts):\n    return opts\nkw(a=1)\nkw(a=\"x\")\n"
	abs := filepath.Join(root, "m.py")
	if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	x := newTestIndex(t, root, "")
	for _, c := range []struct {
		line int
		want string
	}{{2, "(function) a: Literal[1]"}, {3, "(function) a: Literal['x']"}} {
		h := x.At(abs, c.line, 3)
		if h == nil {
			t.Fatalf("m.py:%d: nothing at the keyword", c.line+1)
		}
		md, err := x.Hover(context.Background(), h)
		if err != nil || !strings.Contains(md, c.want) {
			t.Errorf("m.py:%d: hover %q (%v), want %s", c.line+1, md, err, c.want)
		}
	}
}

// TestSignatureHelpStaticFalse: a call in a def under a condition false
// for the target (Linux here) has no signatures, as pyright deems that
// code unreachable; the same call elsewhere has.
func TestSignatureHelpStaticFalse(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"m.py": strings.Join([]string{
		"import sys",
		"def f(a: int) -> int:",
		"    return a",
		`if sys.platform == "win32":`,
		"    def g():",
		"        return f(1)",
		"f(2)",
	}, "\n") + "\n"})
	x := newTestIndex(t, root, "")
	abs := filepath.Join(root, "m.py")
	if sh := x.SignatureHelp(context.Background(), abs, 5, 17); len(sh.Signatures) != 0 {
		t.Errorf("under win32: %+v, want none", sh.Signatures)
	}
	if sh := x.SignatureHelp(context.Background(), abs, 6, 2); len(sh.Signatures) != 1 {
		t.Errorf("at module level: %+v, want f's", sh.Signatures)
	}
}
