package isort

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus compares Sort with isort's output on a real project when
// PYWS_ISORT_CORPUS names a directory holding <project>/orig/<project>
// (the sources) and <project>/isort/<project> (the same after
// `isort --profile black .` run in <project>/isort). It reports the share
// of identical files; tests/differential/format measures the whole tool.
func TestCorpus(t *testing.T) {
	root := os.Getenv("PYWS_ISORT_CORPUS")
	if root == "" {
		t.Skip("PYWS_ISORT_CORPUS not set")
	}
	projects, _ := os.ReadDir(root)
	for _, p := range projects {
		name := p.Name()
		orig := filepath.Join(root, name, "orig")
		ref := filepath.Join(root, name, "isort")
		cfg := Config{SrcModules: FindSrcModules(orig)}
		total, same := 0, 0
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
			got, _ := Sort(string(src), c)
			if got == string(want) {
				same++
			} else if os.Getenv("PYWS_ISORT_SHOW") != "" {
				t.Logf("differs: %s", rel)
			}
			return nil
		})
		t.Logf("%s: %d/%d identical (%.1f%%)", name, same, total, 100*float64(same)/float64(max(total, 1)))
	}
}
