package black

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/knowndiff"
)

var update = flag.Bool("update", false, "rewrite the .golden files by running black, testdata/trees/*.tree, and the corpus lists of known differences")

func format(tb testing.TB, src []byte, o Options) ([]byte, error) {
	tb.Helper()
	return Format(src, parse(tb, src), o)
}

// TestGolden formats testdata/*.py (and *.pyi) and compares with the
// output black 23.1 produced (recorded with -update).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.py")
	pyi, _ := filepath.Glob("testdata/*.pyi")
	files = append(files, pyi...)
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			isPyi := strings.HasSuffix(f, ".pyi")
			golden := f + ".golden"
			o, flags := fixtureOptions(name)
			o.IsPyi = isPyi
			if *update {
				if err := os.WriteFile(golden, blackOutput(t, src, o, flags), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			got, err := format(t, src, o)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("mismatch:\n%s", firstDiff(string(want), string(got)))
			}
			again, err := format(t, want, o)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, want) {
				t.Errorf("not idempotent on the golden file:\n%s", firstDiff(string(want), string(again)))
			}
		})
	}
}

// fixtureOptions reads options from a fixture name: "x.l79.py" sets the
// line length, ".S." skips string normalization, ".C." skips the magic
// trailing comma. It returns the matching black flags.
func fixtureOptions(name string) (Options, []string) {
	o := Options{LineLength: 88}
	var flags []string
	for _, part := range strings.Split(name, ".") {
		switch {
		case part == "S":
			o.SkipStringNormalization = true
			flags = append(flags, "-S")
		case part == "C":
			o.SkipMagicTrailingComma = true
			flags = append(flags, "-C")
		case len(part) > 1 && part[0] == 'l' && part[1] >= '0' && part[1] <= '9':
			fmt.Sscan(part[1:], &o.LineLength)
		}
	}
	return o, flags
}

// firstDiff shows the first differing line with some context.
func firstDiff(want, got string) string {
	wl := strings.Split(want, "\n")
	gl := strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			var b strings.Builder
			for j := max(0, i-3); j < i; j++ {
				fmt.Fprintf(&b, "   %s\n", wl[j])
			}
			for j := i; j < min(i+4, len(wl)); j++ {
				fmt.Fprintf(&b, "-  %s\n", wl[j])
			}
			for j := i; j < min(i+4, len(gl)); j++ {
				fmt.Fprintf(&b, "+  %s\n", gl[j])
			}
			return fmt.Sprintf("line %d:\n%s", i+1, b.String())
		}
	}
	return "(no line difference)"
}

// blackOutput is black's output for src with o's line length and stub
// rules and the flags given.
func blackOutput(tb testing.TB, src []byte, o Options, flags []string) []byte {
	tb.Helper()
	args := append([]string{"-q", "-l", fmt.Sprint(o.LineLength)}, flags...)
	args = append(args, "-")
	if o.IsPyi {
		args = append([]string{"--pyi"}, args...)
	}
	cmd := exec.Command("black", args...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("black: %v", err)
	}
	return out
}

// TestFormatFile compares Format($PYWS_FMT) with black's output for that
// file (options as in fixture names, see fixtureOptions), for looking
// into one difference.
func TestFormatFile(t *testing.T) {
	f := os.Getenv("PYWS_FMT")
	if f == "" {
		t.Skip("PYWS_FMT not set")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	o, flags := fixtureOptions(filepath.Base(f))
	o.IsPyi = strings.HasSuffix(f, ".pyi")
	want := blackOutput(t, src, o, flags)
	got, err := format(t, src, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: Format differs from black:\n%s", f, firstDiff(string(want), string(got)))
	}
}

// TestCorpus compares Format with black over every .py file of the
// directories in $PYWS_BLACK_CORPUS (colon-separated; Debian's
// /usr/lib/python3/dist-packages/{requests,flask,django} are recorded).
// Black runs once per directory on a temporary copy. The files that
// differ or that Format refuses must be exactly those listed in
// testdata/corpus/<directory name>.known (re-record with -update).
func TestCorpus(t *testing.T) {
	dirs := os.Getenv("PYWS_BLACK_CORPUS")
	if dirs == "" {
		t.Skip("PYWS_BLACK_CORPUS not set")
	}
	for _, dir := range strings.Split(dirs, ":") {
		t.Run(filepath.Base(dir), func(t *testing.T) { corpusDir(t, dir) })
	}
}

func corpusDir(t *testing.T, dir string) {
	copyRoot := blackCopy(t, dir)
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no .py files under %s", dir)
	}
	same, blackFailed := 0, 0
	known := map[string]string{} // "differs rel" or "refused rel" -> what shows it
	causes := map[string]int{}
	examples := map[string]string{}
	var elapsed time.Duration
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		src, _ := os.ReadFile(f)
		want, err := os.ReadFile(filepath.Join(copyRoot, rel))
		if err != nil {
			continue
		}
		if bytes.Equal(want, src) && !blackAccepts(src) {
			blackFailed++
			continue
		}
		tr := parse(t, src)
		start := time.Now()
		got, err := Format(src, tr, Options{})
		elapsed += time.Since(start)
		switch {
		case err != nil:
			known["refused "+rel] = err.Error()
			causes["refused: "+err.Error()]++
		case bytes.Equal(got, want):
			same++
		default:
			diff := firstDiff(string(want), string(got))
			known["differs "+rel] = diff
			key := diffKey(string(want), string(got))
			causes[key]++
			if _, ok := examples[key]; !ok {
				examples[key] = rel + "\n" + diff
			}
		}
	}
	total := same + len(known)
	t.Logf("%s: %d/%d files identical (%.1f%%), %d differ or refused, %d skipped (black failed); format time %v",
		dir, same, total, 100*float64(same)/float64(max(total, 1)), len(known), blackFailed, elapsed)
	logCauses(t, causes, examples)
	knowndiff.List{
		Path:   filepath.Join("testdata", "corpus", filepath.Base(dir)+".known"),
		Header: "Files of " + dir + " that Format formats differently from black 23.1 (--fast -l 88), or refuses.\nRecorded by TestCorpus -update (PYWS_BLACK_CORPUS).",
		Record: "PYWS_BLACK_CORPUS=" + dir + " go test ./plugins/formatter/black -run TestCorpus -update",
	}.Check(t, known, *update)
}

// blackCopy runs black over a copy of dir and returns the copy's root.
func blackCopy(t *testing.T, dir string) string {
	tmp := t.TempDir()
	if out, err := exec.Command("cp", "-r", dir, tmp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	copyRoot := filepath.Join(tmp, filepath.Base(dir))
	cmd := exec.Command("black", "-q", "--fast", "-l", "88", copyRoot)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir()) // black skips files its cache says are formatted
	cmd.Run()                                                     // black exits 123 when some file fails; those are skipped
	return copyRoot
}

// logCauses logs the commonest first differences, with an example each.
func logCauses(t *testing.T, causes map[string]int, examples map[string]string) {
	type kv struct {
		k string
		v int
	}
	var cs []kv
	for k, v := range causes {
		cs = append(cs, kv{k, v})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].v > cs[j].v || cs[i].v == cs[j].v && cs[i].k < cs[j].k })
	for i, c := range cs {
		if i >= 25 {
			break
		}
		t.Logf("%4d  %s\n%s", c.v, c.k, examples[c.k])
	}
}

// blackAccepts is a cheap check used only when black left a file
// untouched: it is either already formatted or black refused it.
func blackAccepts(src []byte) bool {
	cmd := exec.Command("black", "-q", "--check", "--fast", "-")
	cmd.Stdin = bytes.NewReader(src)
	err := cmd.Run()
	if err == nil {
		return true
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return true
	}
	return false
}

// diffKey names the first differing line pair roughly, to group causes.
func diffKey(want, got string) string {
	wl := strings.Split(want, "\n")
	gl := strings.Split(got, "\n")
	for i := 0; i < len(wl) && i < len(gl); i++ {
		if wl[i] != gl[i] {
			w, g := strings.TrimSpace(wl[i]), strings.TrimSpace(gl[i])
			return fmt.Sprintf("want %q got %q", clip(w), clip(g))
		}
	}
	return "length differs"
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

// TestIdempotentCorpus checks Format(file) == file for every .py file of
// $PYWS_BLACK_FORMATTED, a directory black has already formatted.
func TestIdempotentCorpus(t *testing.T) {
	dir := os.Getenv("PYWS_BLACK_FORMATTED")
	if dir == "" {
		t.Skip("PYWS_BLACK_FORMATTED not set")
	}
	n, bad := 0, 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		src, _ := os.ReadFile(p)
		tr := parse(t, src)
		if tr.Root().HasError() {
			return nil
		}
		n++
		got, err := Format(src, tr, Options{})
		if err != nil || !bytes.Equal(got, src) {
			bad++
			if bad <= 5 {
				t.Errorf("%s: not stable: %v\n%s", p, err, firstDiff(string(src), string(got)))
			}
		}
		return nil
	})
	if n == 0 {
		t.Fatalf("no parsable .py files under %s", dir)
	}
	t.Logf("%d files, %d unstable", n, bad)
}

func TestRefuse(t *testing.T) {
	for _, src := range []string{
		"def f(:\n    pass\n",
		"x = (1,\n",
		"x = [\n    1,  # fmt: skip\n    2,\n]\n",
		"x = [\n    # fmt: off\n    1,   2,\n    # fmt: on\n]\n",
	} {
		out, err := format(t, []byte(src), Options{})
		if err == nil || !errors.Is(err, ErrRefused) {
			t.Errorf("%q: want a refusal, got %q, %v", src, out, err)
		}
	}
}

func TestEmptyAndWhitespace(t *testing.T) {
	for src, want := range map[string]string{"": "", "\n\n": "\n", "\r\n": "\r\n", "x=1": "x = 1\n"} {
		got, err := format(t, []byte(src), Options{})
		if err != nil || string(got) != want {
			t.Errorf("%q: got %q, %v; want %q", src, got, err, want)
		}
	}
}
