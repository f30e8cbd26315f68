package diagdiff

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugins/diagnostics/rules"
)

// TestRecordedCorpus is the CI form of the differential test: the rules
// run natively on testdata/corpus and are compared with the recorded
// pyflakes and pyright output (testdata/README.md). Same thresholds as
// the live run: precision >= 0.97 and recall >= 0.95 per pyflakes code,
// no missing-argument or type-mismatch pyright does not report.
func TestRecordedCorpus(t *testing.T) {
	files := corpusFiles(t)
	rels := make([]string, 0, len(files))
	for rel := range files {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	pfPath, prPath := filepath.Join("testdata", "pyflakes.txt"), filepath.Join("testdata", "pyright.json")
	if os.Getenv("PYWS_DIFF_RECORD") != "" {
		// The tools run on one directory holding every corpus file under
		// its corpus name.
		dir := t.TempDir()
		for rel, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, rel), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		cmd := exec.Command(systemPython, append([]string{"-m", "pyflakes"}, rels...)...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &buf, &buf
		cmd.Run()
		os.WriteFile(pfPath, buf.Bytes(), 0o644)
		cmd = exec.Command(pyrightBin, append([]string{"--outputjson", "--pythonversion", "3.11", "--pythonpath", systemPython}, rels...)...)
		cmd.Dir = dir
		out, _ := cmd.Output()
		out = bytes.ReplaceAll(out, []byte(dir+"/"), nil)
		os.WriteFile(prPath, out, 0o644)
	}
	pfOut, err := os.ReadFile(pfPath)
	if err != nil {
		t.Fatal(err)
	}
	prOut, err := os.ReadFile(prPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := rules.ParseConfig(map[string]any{"python-version": "3.11", "ignore-noqa": true})
	lines := map[string][]string{}
	var ours []Finding
	for _, rel := range rels {
		src, err := os.ReadFile(files[rel])
		if err != nil {
			t.Fatal(err)
		}
		lines[rel] = strings.Split(string(src), "\n")
		tr := parsertest.Tree(t, src)
		for _, d := range rules.Run(tr, textpos.New(src), cfg, rules.Env{Path: rel, ModuleName: strings.TrimSuffix(rel, ".py")}) {
			ours = append(ours, Finding{File: rel, Line: d.Range.Start.Line + 1, Code: d.Code, Name: OurName(d.Code, d.Message), Text: d.Message})
		}
	}
	strip := func(s string) string { return filepath.Base(s) }
	theirs := ParsePyflakes(pfOut, strip, func(f string) []string { return lines[f] })
	scores := ComparePyflakes(ours, theirs)
	total := 0
	for _, code := range PyflakesCodes {
		sc := scores[code]
		total += sc.Theirs
		t.Logf("%-18s pyflakes=%3d ours=%3d agree=%3d precision=%.3f recall=%.3f", code, sc.Theirs, sc.Ours, sc.Agree, sc.Precision(), sc.Recall())
		if sc.Precision() < 0.97 || sc.Recall() < 0.95 {
			for _, f := range sc.OnlyOurs {
				t.Logf("  only ours:     %s:%d %s", f.File, f.Line, f.Text)
			}
			for _, f := range sc.OnlyTheirs {
				t.Logf("  only pyflakes: %s:%d %s", f.File, f.Line, f.Text)
			}
			t.Errorf("%s: precision %.3f recall %.3f", code, sc.Precision(), sc.Recall())
		}
	}
	if total < 50 {
		t.Fatalf("only %d recorded pyflakes findings: the corpus or the recording is broken", total)
	}
	pr, err := ParsePyright(prOut, strip)
	if err != nil {
		t.Fatal(err)
	}
	var calls []Finding
	for _, f := range ours {
		if f.Code == "missing-argument" || f.Code == "type-mismatch" {
			calls = append(calls, f)
		}
	}
	fps, counts := PyrightFalsePositives(calls, pr)
	t.Logf("missing-argument=%d type-mismatch=%d, not confirmed by pyright: %d/%d",
		counts["missing-argument"], counts["type-mismatch"], len(fps["missing-argument"]), len(fps["type-mismatch"]))
	for _, fs := range fps {
		for _, f := range fs {
			t.Errorf("%s:%d %s: %s (pyright does not report it)", f.File, f.Line, f.Code, f.Text)
		}
	}
	if counts["missing-argument"] == 0 || counts["type-mismatch"] == 0 {
		t.Errorf("the corpus should exercise both call codes")
	}
}

// corpusFixtures are rule fixtures of plugins/diagnostics/testdata that
// join the corpus as cases_<name>.py, the names the recordings use; they
// are read in place, not copied.
var corpusFixtures = []string{"calls_local", "calls_stdlib", "duplicate_import", "names_basic", "names_try", "unreachable"}

// corpusFiles maps each corpus name to its file: the real-project files of
// testdata/corpus and the rule fixtures.
func corpusFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.py"))
	for _, p := range paths {
		files[filepath.Base(p)] = p
	}
	for _, name := range corpusFixtures {
		p := filepath.Join("..", "..", "..", "plugins", "diagnostics", "testdata", name+".py")
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("corpus fixture: %v", err)
		}
		files["cases_"+name+".py"] = p
	}
	if len(files) < 5 {
		t.Fatalf("corpus has %d files", len(files))
	}
	return files
}
