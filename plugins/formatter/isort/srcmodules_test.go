package isort

import (
	"reflect"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// TestSrcModules: the names isort's default src_paths make first party,
// from the listings the kernel sends.
func TestSrcModules(t *testing.T) {
	got := SrcModules([]abi.DirListing{
		{Name: "src", Entries: []abi.DirEntry{{Name: "app", Dir: true}, {Name: ".cache", Dir: true}}},
		{Name: "project", Entries: []abi.DirEntry{
			{Name: "tools", Dir: true}, {Name: "setup.py"}, {Name: "fast.cpython-312-x86_64-linux-gnu.so"},
			{Name: "ext.abi3.so"}, {Name: "README.md"}, {Name: "a.b.py"}, {Name: ".hidden.py"},
		}},
	})
	want := map[string]bool{"src": true, "app": true, "project": true, "tools": true, "setup": true, "fast": true, "ext": true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}
