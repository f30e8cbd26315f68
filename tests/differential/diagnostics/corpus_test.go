package diagdiff

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/parser/parsertest"
	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugins/diagnostics/rules"
)

// TestRecordedCorpus is the CI form of the differential test: the rules
// run natively on testdata/corpus and are compared with the recorded
// pyflakes and pyright output (testdata/README.md). Same thresholds as
// the live run: precision >= 0.97 and recall >= 0.95 per pyflakes code,
// no missing-argument or type-mismatch pyright does not report.
func TestRecordedCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	sort.Strings(paths)
	if len(paths) < 5 {
		t.Fatalf("corpus has %d files", len(paths))
	}
	var rels []string
	for _, p := range paths {
		rels = append(rels, filepath.Base(p))
	}
	pfPath, prPath := filepath.Join("testdata", "pyflakes.txt"), filepath.Join("testdata", "pyright.json")
	if os.Getenv("PYWS_DIFF_RECORD") != "" {
		var buf bytes.Buffer
		cmd := exec.Command(systemPython, append([]string{"-m", "pyflakes"}, rels...)...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &buf, &buf
		cmd.Run()
		os.WriteFile(pfPath, buf.Bytes(), 0o644)
		abs, _ := filepath.Abs(dir)
		cmd = exec.Command(pyrightBin, append([]string{"--outputjson", "--pythonversion", "3.11", "--pythonpath", systemPython}, rels...)...)
		cmd.Dir = dir
		out, _ := cmd.Output()
		out = bytes.ReplaceAll(out, []byte(abs+"/"), nil)
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
		src, err := os.ReadFile(filepath.Join(dir, rel))
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
