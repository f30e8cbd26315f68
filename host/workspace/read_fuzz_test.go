package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

// FuzzReadRange: a file's bytes are whatever is on disk. A lineRange read
// of a file over the size cap streams it (streamRange, lineScanner); one
// under the cap reads it whole (readWhole, sliceLines). Both must agree
// on every file, range and encoding, and neither may panic.
func FuzzReadRange(f *testing.F) {
	for _, s := range []string{"a\nb\nc\n", "a\r\nb", "", "\n\n\n", "\xef\xbb\xbfx = 1\n", "\xff\xfea\x00\n\x00b\x00",
		"\xfe\xff\x00a\x00\n", "# -*- coding: latin-1 -*-\nx = '\xe9'\n", "\x00\x00\x00", "a\xffb\n"} {
		f.Add([]byte(s), 0, 1, "")
		f.Add([]byte(s), 1, 5, "utf-16")
		f.Add([]byte(s), 0, 0, "latin-1")
	}
	root := f.TempDir()
	w, err := Open(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content []byte, start, end int, enc string) {
		if len(content) > 1<<16 || start < 0 || end < start || end > 1<<20 {
			return
		}
		if err := os.WriteFile(filepath.Join(root, "f.py"), content, 0o644); err != nil {
			t.Fatal(err)
		}
		read := func(maxBytes int64) (*FileContent, error) {
			return w.ReadFile(context.Background(), ReadOptions{Path: "f.py", Encoding: enc,
				LineRange: &LineRange{Start: start, End: end}, MaxBytes: maxBytes})
		}
		whole, werr := read(0)
		var streamed *FileContent
		var serr error
		if len(content) > 0 {
			// A cap under the file's size streams it; a cap too small for
			// the lines asked is FILE_TOO_LARGE, which a whole read of
			// the same lines would not say: give room for them.
			streamed, serr = read(int64(len(content) - 1))
		} else {
			streamed, serr = whole, werr
		}
		code := func(err error) string {
			var fe *fault.Error
			if errors.As(err, &fe) {
				return fe.Code
			}
			if err != nil {
				return err.Error()
			}
			return ""
		}
		if code(serr) == fault.FileTooLarge {
			return // the range itself is as large as the file
		}
		if code(werr) == fault.EncodingError {
			// The stream decodes only the lines asked: bytes that do not
			// decode elsewhere in the file fail a whole read alone.
			return
		}
		if code(werr) != code(serr) {
			t.Fatalf("whole read: %v; streamed: %v", werr, serr)
		}
		if werr != nil {
			return
		}
		if whole.Content != streamed.Content {
			t.Fatalf("content: whole %q, streamed %q", whole.Content, streamed.Content)
		}
		wm, sm := whole.Metadata, streamed.Metadata
		if wm.Lines != sm.Lines || wm.Hash != sm.Hash || wm.Size != sm.Size || *wm.LinesReturned != *sm.LinesReturned || *wm.LineRange != *sm.LineRange {
			t.Fatalf("metadata: whole %+v, streamed %+v", wm, sm)
		}
	})
}
