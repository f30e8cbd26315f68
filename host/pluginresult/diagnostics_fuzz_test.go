package pluginresult

import (
	"testing"

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
		body, err := DecodeDiagnostics(out, idx)
		if err != nil {
			return
		}
		for _, d := range body.Diagnostics {
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
