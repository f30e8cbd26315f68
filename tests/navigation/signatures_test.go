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
