package service

import (
	"reflect"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// FuzzDecodeDiagnostics feeds arbitrary plugin output: the kernel must
// never panic, and whatever it accepts must lie inside the file.
func FuzzDecodeDiagnostics(f *testing.F) {
	f.Add([]byte(`{"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"code":"syntax-error","message":"x"}]}`), []byte("x = 1\n"))
	f.Add([]byte(`{"diagnostics":[{"range":{"start":{"line":9,"character":0},"end":{"line":0,"character":1}},"severity":7,"code":""}]}`), []byte("é😀\n"))
	f.Add([]byte(`{"diagnostics":null}`), []byte(""))
	f.Add([]byte(`[]`), []byte("a"))
	f.Fuzz(func(t *testing.T, out, src []byte) {
		idx := textpos.New(src)
		diags, err := DecodeDiagnostics(out, idx)
		if err != nil {
			return
		}
		for _, d := range diags {
			s, err1 := idx.Offset(d.Range.Start.Line, d.Range.Start.Character)
			e, err2 := idx.Offset(d.Range.End.Line, d.Range.End.Character)
			if err1 != nil || err2 != nil || s > e {
				t.Fatalf("accepted a range outside the file: %+v", d.Range)
			}
			if d.Severity < 1 || d.Severity > 4 || d.Code == "" || d.Source == "" {
				t.Fatalf("accepted %+v", d)
			}
		}
	})
}

// FuzzImportScan: the line-filtered import scan finds exactly what the
// expression finds over the whole text, and wordCount agrees with \b.
func FuzzImportScan(f *testing.F) {
	for _, s := range []string{
		"import os\nfrom . import (a,\n    b as c)  # x\nx = 1\n",
		"  from ..pkg.mod import *\nimport a.b as c, d; import e\n",
		"from x import (\n a,\n b\n",
		"def f():\n    import json\n    from os import path\n",
		"s = '''\nimport fake\n'''\nfromage = 1\nimportant = 2\n",
		"from a import b \\\n    , c\n",
		"from m import (a)\nfrom n import (b,\nc)\n",
	} {
		f.Add(s, "path")
	}
	f.Add("é = 1\nxé\n", "é")
	f.Fuzz(func(t *testing.T, text, word string) {
		want := importLine.FindAllStringSubmatch(text, -1)
		got := importStatements(text)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("importStatements(%q):\n got %q\nwant %q", text, got, want)
		}
		if !isIdent(word) || !utf8.ValidString(word) {
			return
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
		if w, g := min(len(re.FindAllIndex([]byte(text), 3)), 3), wordCount([]byte(text), word, 3); w != g {
			t.Fatalf("wordCount(%q, %q) = %d, regexp finds %d", text, word, g, w)
		}
	})
}
