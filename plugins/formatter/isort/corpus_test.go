package isort

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/knowndiff"
)

// TestCorpus compares Sort with isort's output on real projects when
// PYWS_ISORT_CORPUS names a directory holding <project>/orig/<project>
// (the sources) and <project>/isort/<project> (the same after
// `isort --profile black .` run in <project>/isort). The files that
// differ must be exactly those listed in testdata/corpus/<project>.known
// (re-record with -update); tests/differential/format measures the whole
// tool.
func TestCorpus(t *testing.T) {
	root := os.Getenv("PYWS_ISORT_CORPUS")
	if root == "" {
		t.Skip("PYWS_ISORT_CORPUS not set")
	}
	projects, err := os.ReadDir(root)
	if err != nil || len(projects) == 0 {
		t.Fatalf("no projects under %s: %v", root, err)
	}
	for _, p := range projects {
		t.Run(p.Name(), func(t *testing.T) { corpusProject(t, root, p.Name()) })
	}
}

func corpusProject(t *testing.T, root, name string) {
	orig := filepath.Join(root, name, "orig")
	ref := filepath.Join(root, name, "isort")
	cfg := Config{SrcModules: FindSrcModules(orig)}
	total := 0
	differ := map[string]string{} // "differs rel" -> the first differing line
	filepath.WalkDir(filepath.Join(orig, name), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi")) {
			return nil
		}
		rel, _ := filepath.Rel(orig, path)
		src, _ := os.ReadFile(path)
		want, err := os.ReadFile(filepath.Join(ref, rel))
		if err != nil {
			return nil
		}
		total++
		c := cfg
		c.Pyi = strings.HasSuffix(path, ".pyi")
		if got, _ := Sort(string(src), c); got != string(want) {
			differ["differs "+rel] = firstDifference(string(want), got)
		}
		return nil
	})
	if total == 0 {
		t.Fatalf("no files compared under %s", filepath.Join(root, name))
	}
	t.Logf("%s: %d/%d identical (%.1f%%)", name, total-len(differ), total, 100*float64(total-len(differ))/float64(total))
	knowndiff.List{
		Path:   filepath.Join("testdata", "corpus", name+".known"),
		Header: "Files of " + name + " that Sort sorts differently from isort 5.6 --profile black.\nRecorded by TestCorpus -update (PYWS_ISORT_CORPUS).",
		Record: "PYWS_ISORT_CORPUS=" + root + " go test ./plugins/formatter/isort -run TestCorpus -update",
	}.Check(t, differ, *update)
}

// firstDifference shows the first line where got departs from want.
func firstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		if i >= len(wl) || i >= len(gl) || wl[i] != gl[i] {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, at(wl, i), at(gl, i))
		}
	}
	return "no line differs"
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}
