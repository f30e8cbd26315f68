package pysem

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/markertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// occ returns the byte offset of the k-th (1-based) whole-word occurrence
// of name in src, or -1.
func occ(src, name string, k int) int { return markertest.Occurrence(src, name, k) }

func posOf(src string, off int) string {
	l, c := textpos.New([]byte(src)).Position(off)
	return fmt.Sprintf("%d:%d", l+1, c+1)
}

// dump renders the model compactly for debugging and golden tests.
func dump(m *Module) string {
	src := string(m.Tree.Source())
	var sb strings.Builder
	for _, s := range m.Scopes {
		fmt.Fprintf(&sb, "scope %d %s [%s-%s)", s.Index, s.Kind, posOf(src, s.Start), posOf(src, s.End))
		if s.Parent != nil {
			fmt.Fprintf(&sb, " parent=%d", s.Parent.Index)
		}
		if s.Method != NotMethod {
			fmt.Fprintf(&sb, " method=%d", s.Method)
		}
		sb.WriteString("\n")
	}
	for _, b := range m.Bindings {
		fmt.Fprintf(&sb, "bind %s %s @%s scope=%d refs=%d", b.Name, b.Kind, posOf(src, b.NameNode.StartByte()), b.Scope.Index, len(b.Refs))
		if b.Conditional {
			sb.WriteString(" cond")
		}
		if b.InTypeChecking {
			sb.WriteString(" tc")
		}
		if b.InTryImportError {
			sb.WriteString(" tryimp")
		}
		if b.Docstring != "" {
			fmt.Fprintf(&sb, " doc=%q", b.Docstring)
		}
		sb.WriteString("\n")
	}
	for _, r := range m.Refs {
		fmt.Fprintf(&sb, "ref %s @%s ctx=%b scope=%d -> %s\n", r.Name, posOf(src, r.Start), r.Ctx, r.Scope.Index, resDesc(src, r))
	}
	for _, a := range m.Attrs {
		ob := ""
		if a.ObjectBinding != nil {
			ob = " obj=" + a.ObjectBinding.Name + "@" + posOf(src, a.ObjectBinding.NameNode.StartByte())
		}
		fmt.Fprintf(&sb, "attr .%s @%s ctx=%b%s\n", a.Name, posOf(src, a.Start), a.Ctx, ob)
	}
	return sb.String()
}

func resDesc(src string, r *Ref) string {
	switch {
	case r.Builtin:
		return "builtin"
	case r.Implicit:
		return "implicit"
	case r.Binding == nil:
		return "undef"
	}
	s := r.Binding.Name + "@" + posOf(src, r.Binding.NameNode.StartByte())
	if r.Unbound {
		s += "!"
	}
	return s
}

var specRe = regexp.MustCompile(`^(\S+?)#(\d+)\s*->\s*(\S+)$`)

// checkRefs checks expectations "name#k -> want" where want is builtin,
// implicit, undef, none (no ref there), or "name#j" (resolves to the
// binding whose name is the j-th occurrence), with a trailing ! for
// Unbound.
func checkRefs(t *testing.T, src string, opts Options, specs []string) *Module {
	t.Helper()
	m := Analyze(parse(t, src), opts)
	for _, spec := range specs {
		mm := specRe.FindStringSubmatch(spec)
		if mm == nil {
			t.Fatalf("bad spec %q", spec)
		}
		k, _ := strconv.Atoi(mm[2])
		off := occ(src, mm[1], k)
		if off < 0 {
			t.Fatalf("%q: no occurrence", spec)
		}
		_, r, _ := m.At(off)
		want := mm[3]
		if want == "none" {
			if r != nil {
				t.Errorf("%q: got ref -> %s", spec, resDesc(src, r))
			}
			continue
		}
		if r == nil {
			t.Errorf("%q: no ref at %s", spec, posOf(src, off))
			continue
		}
		got := resDesc(src, r)
		switch want {
		case "builtin", "implicit", "undef":
		default:
			unb := strings.HasSuffix(want, "!")
			w := strings.TrimSuffix(want, "!")
			wm := regexp.MustCompile(`^(\S+?)#(\d+)$`).FindStringSubmatch(w)
			if wm == nil {
				t.Fatalf("bad want in %q", spec)
			}
			j, _ := strconv.Atoi(wm[2])
			woff := occ(src, wm[1], j)
			want = wm[1] + "@" + posOf(src, woff)
			if unb {
				want += "!"
			}
		}
		if got != want {
			t.Errorf("%q: got %s, want %s", spec, got, want)
		}
	}
	if t.Failed() {
		t.Log("\n" + src + "\n" + dump(m))
	}
	return m
}
