package knowndiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps the failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	panic(r)
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func check(t *testing.T, l List, found map[string]string, update bool) (r *recorder) {
	r = &recorder{TB: t}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
	}()
	l.Check(r, found, update)
	return r
}

func TestCheck(t *testing.T) {
	l := List{Path: filepath.Join(t.TempDir(), "known.txt"), Header: "isort 5.6.4\non requests", Record: "go test -update"}
	if r := check(t, l, nil, false); !r.fatal || !strings.Contains(r.errors[0], "go test -update") {
		t.Fatalf("a missing list must stop the test and say how to record it: %q", r.errors)
	}
	found := map[string]string{"differs b.py": "line 3", "refused a.py": "unsupported"}
	if r := check(t, l, found, true); len(r.errors) > 0 {
		t.Fatalf("recording failed: %q", r.errors)
	}
	data, _ := os.ReadFile(l.Path)
	if want := "# isort 5.6.4\n# on requests\ndiffers b.py\nrefused a.py\n"; string(data) != want {
		t.Fatalf("recorded %q, want %q", data, want)
	}
	if r := check(t, l, found, false); len(r.errors) > 0 {
		t.Fatalf("the recorded differences fail: %q", r.errors)
	}

	grown := map[string]string{"differs b.py": "", "refused a.py": "", "differs c.py": "line 7: x"}
	r := check(t, l, grown, false)
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "new difference") || !strings.Contains(r.errors[0], "differs c.py\nline 7: x") {
		t.Errorf("a new difference: %q", r.errors)
	}
	fixed := map[string]string{"refused a.py": ""}
	r = check(t, l, fixed, false)
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "no longer found") || !strings.Contains(r.errors[0], "differs b.py") {
		t.Errorf("a fixed difference still listed: %q", r.errors)
	}
	if r := check(t, l, map[string]string{"# x": ""}, false); !r.fatal {
		t.Errorf("a comment line was accepted as a difference")
	}
}
