package types

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// TestCheckAttributes: Check reports an attribute read only when every
// member of the receiver's class is known, and stays silent on every
// shape of class or receiver that may hold members it cannot see.
func TestCheckAttributes(t *testing.T) {
	src := `
import dataclasses


class Base:
    x = 1


class Box(Base):
    def __init__(self):
        self.y = 2

    def own(self):
        return self.z


class Dynamic:
    def __getattr__(self, name): ...


class Descriptor:
    def __get__(self, obj, owner): ...


def decorate(cls):
    return cls


@decorate
class Decorated: ...


@dataclasses.dataclass
class Point:
    a: int = 0


class Mixin:
    def run(self):
        return super().missing()


class Unknown(NotDefined): ...


b = Box()
b.x
b.y
b.z
Dynamic().anything
Descriptor().other
Decorated().other
Point().a
Point().b
Unknown().other
`
	p := newProgram(t, map[string]string{"m": src})
	u := p.unit("m")
	var got []string
	for _, f := range pytypes.New(p, pytypes.Options{}).Check(u) {
		got = append(got, strconv.Itoa(int(f.Span.Line))+" "+f.Message)
	}
	want := []string{
		`48 Cannot access attribute "z" for class "Box"`,
		`53 Cannot access attribute "b" for class "Point"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMismatchMarkers: Check's type-mismatch findings on
// testdata/mismatch.py (with mismatch_models.py and mismatch_other.py,
// the declarations it imports) are exactly its `#@mismatch MESSAGE` markers: the true
// positives of each rule (assignment, annotated attribute, inherited
// class variable or property, return, argument, constructor (also of a
// total_ordering class), unannotated parameter with a default) and none of the tricky negatives (promotions, displays
// built against the declared type, Any, object, protocols, narrowing,
// type variables, generators, unknowns, decorated callees, calls that do
// not bind; the positional arguments after an unpacked one).
func TestMismatchMarkers(t *testing.T) {
	fixtures := mismatchFixtures(t)
	p := newProgram(t, fixtures)
	var got, want []string
	for i, line := range strings.Split(fixtures["mismatch"], "\n") {
		if _, msg, ok := strings.Cut(line, "#@mismatch "); ok {
			want = append(want, strconv.Itoa(i+1)+" "+strings.TrimSpace(msg))
		}
	}
	for _, f := range pytypes.New(p, pytypes.Options{}).Check(p.unit("mismatch")) {
		if f.Code == "type-mismatch" {
			got = append(got, strconv.Itoa(int(f.Span.Line)+1)+" "+f.Message)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckLeavesAnswersAlone: Check keeps its file's expression types
// to its own pass (the memo it leaves behind is smaller), so what it
// leaves must not change any later answer: the hover text at every
// occurrence of the mismatch fixtures, after Check, is the text a fresh
// evaluator gives, and a second Check repeats the first.
func TestCheckLeavesAnswersAlone(t *testing.T) {
	fixtures := mismatchFixtures(t)
	p := newProgram(t, fixtures)
	u := p.unit("mismatch")
	hovers := func(e *pytypes.Evaluator) []string {
		var out []string
		for _, o := range u.Summary().Occs {
			out = append(out, e.HoverAt(u, o))
		}
		return out
	}
	checked := pytypes.New(p, pytypes.Options{})
	first := checked.Check(u)
	if len(first) == 0 {
		t.Fatal("no findings: the fixture no longer exercises Check")
	}
	after := hovers(checked)
	fresh := hovers(pytypes.New(p, pytypes.Options{}))
	for i := range fresh {
		if after[i] != fresh[i] {
			t.Errorf("occurrence %d at %v: after Check %q, fresh %q", i, u.Summary().Occs[i].Span, after[i], fresh[i])
		}
	}
	if a, b := fmt.Sprint(first), fmt.Sprint(checked.Check(u)); a != b {
		t.Errorf("a second Check differs:\n%s\n%s", b, a)
	}
}

// mismatchFixtures are testdata/mismatch.py and the modules it imports,
// by module name.
func mismatchFixtures(t *testing.T) map[string]string {
	fixtures := map[string]string{}
	for _, mod := range []string{"mismatch", "mismatch_models", "mismatch_other"} {
		b, err := os.ReadFile(filepath.Join("testdata", mod+".py"))
		if err != nil {
			t.Fatal(err)
		}
		fixtures[mod] = string(b)
	}
	return fixtures
}
