package workspace

import (
	"strings"
	"testing"
)

// FuzzGlob: the filter and excludePatterns globs come from the caller,
// the paths from the disk. A pattern is refused with a reason or
// matches any path without panicking; a path matched is matched again
// when a file below it is asked (a pattern excludes whole subtrees).
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"**/*.py", "a/b.py"}, {"[", "x"}, {"{a,b", "a"}, {"a\\", "a"}, {"**/migrations", "app/migrations/0001.py"},
		{"/src/", "src/x.py"}, {"[!]]", "]"}, {"{a,{b,c}}/*.py", "c/d.py"}, {"\\[x]", "[x]"}, {"test_*.py", "pkg/test_a.py"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, rel string) {
		if len(glob) > 512 || len(rel) > 1024 {
			return
		}
		p, err := compilePattern(glob)
		if err != nil {
			return // INVALID_FILTER with a reason: TestListFilesErrors
		}
		rel = strings.Trim(rel, "/")
		if rel == "" || strings.Contains(rel, "//") {
			return
		}
		if p.match(rel) && !p.match(rel+"/below.py") {
			t.Fatalf("%q matches %q but not a file below it", glob, rel)
		}
	})
}
