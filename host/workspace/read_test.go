package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
)

func numbered(n int, term string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d%s", i, term)
	}
	return b.String()
}

func le16(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s { // BMP only in these tests
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func TestReadFile(t *testing.T) {
	files := map[string]string{
		"a.py":       "import os\nx = 'é'\n",
		"noeol.py":   "a\nb",
		"crlf.py":    "a\r\nb\r\nc\r\n",
		"empty.py":   "",
		"big.py":     numbered(200, "\n"),
		"bom.py":     "\xef\xbb\xbfx = 1\n",
		"latin.py":   "# -*- coding: latin-1 -*-\ns = '\xe9'\n",
		"utf16.py":   le16("a = 1\nb = 2\n"),
		"cp.py":      "s = '\x93q\x94'\n",
		"stub.pyi":   "def f() -> int: ...\n",
		"README.md":  "# hi\n",
		"pkg/mod.py": "y = 2\n",
		"undef.py":   "s = '\x81'\n",
		"cookie8.py": "# coding: utf-8\n\xff\n",
		"ascii.py":   "caf\xc3\xa9\n",
	}
	w := tree(t, files)
	r1 := func(s, e int) *LineRange { return &LineRange{Start: s, End: e} }
	tests := []struct {
		name     string
		o        ReadOptions
		content  string
		lines    int
		enc      string
		lang     string
		returned int
		rng      *LineRange
		code     string
		details  fault.Details
	}{
		{name: "whole", o: ReadOptions{Path: "a.py"}, content: files["a.py"], lines: 2, enc: "utf-8", lang: "python"},
		{name: "root-relative slash", o: ReadOptions{Path: "/pkg/mod.py"}, content: "y = 2\n", lines: 1, enc: "utf-8", lang: "python"},
		{name: "no final newline", o: ReadOptions{Path: "noeol.py"}, content: "a\nb", lines: 2, enc: "utf-8", lang: "python"},
		{name: "empty", o: ReadOptions{Path: "empty.py"}, content: "", lines: 0, enc: "utf-8", lang: "python"},
		{name: "stub", o: ReadOptions{Path: "stub.pyi"}, content: files["stub.pyi"], lines: 1, enc: "utf-8", lang: "python-stub"},
		{name: "non-python", o: ReadOptions{Path: "README.md"}, content: "# hi\n", lines: 1, enc: "utf-8", lang: ""},
		{name: "bom stripped", o: ReadOptions{Path: "bom.py"}, content: "x = 1\n", lines: 1, enc: "utf-8", lang: "python"},
		{name: "latin-1 cookie", o: ReadOptions{Path: "latin.py"}, content: "# -*- coding: latin-1 -*-\ns = 'é'\n", lines: 2, enc: "latin-1", lang: "python"},
		{name: "utf-16 bom", o: ReadOptions{Path: "utf16.py"}, content: "a = 1\nb = 2\n", lines: 2, enc: "utf-16", lang: "python"},
		{name: "cp1252 requested", o: ReadOptions{Path: "cp.py", Encoding: "windows-1252"}, content: "s = '“q”'\n", lines: 1, enc: "cp1252", lang: "python"},
		{name: "range 50-100 is 51 lines", o: ReadOptions{Path: "big.py", LineRange: r1(50, 100)}, content: strings.Join(strings.SplitAfter(numbered(200, "\n"), "\n")[50:101], ""), lines: 200, enc: "utf-8", lang: "python", returned: 51, rng: r1(50, 100)},
		{name: "range end clamped", o: ReadOptions{Path: "big.py", LineRange: r1(198, 500)}, content: "line 198\nline 199\n", lines: 200, enc: "utf-8", lang: "python", returned: 2, rng: r1(198, 199)},
		{name: "range one line crlf", o: ReadOptions{Path: "crlf.py", LineRange: r1(1, 1)}, content: "b\r\n", lines: 3, enc: "utf-8", lang: "python", returned: 1, rng: r1(1, 1)},
		{name: "range last line no eol", o: ReadOptions{Path: "noeol.py", LineRange: r1(1, 9)}, content: "b", lines: 2, enc: "utf-8", lang: "python", returned: 1, rng: r1(1, 1)},
		{name: "range of empty file", o: ReadOptions{Path: "empty.py", LineRange: r1(0, 3)}, content: "", lines: 0, enc: "utf-8", lang: "python", returned: 0, rng: r1(0, 0)},
		{name: "range start beyond", o: ReadOptions{Path: "big.py", LineRange: r1(200, 201)}, code: fault.InvalidParameter, details: fault.Details{"parameter": "lineRange", "max": 199}},
		{name: "range start after end", o: ReadOptions{Path: "big.py", LineRange: r1(5, 4)}, code: fault.InvalidParameter, details: fault.Details{"parameter": "lineRange"}},
		{name: "range negative", o: ReadOptions{Path: "big.py", LineRange: r1(-1, 4)}, code: fault.InvalidParameter, details: fault.Details{"parameter": "lineRange"}},
		{name: "unknown encoding", o: ReadOptions{Path: "a.py", Encoding: "ebcdic"}, code: fault.InvalidParameter, details: fault.Details{"parameter": "encoding", "value": "ebcdic"}},
		{name: "invalid utf-8", o: ReadOptions{Path: "cp.py"}, code: fault.EncodingError, details: fault.Details{"path": "cp.py", "requestedEncoding": "utf-8", "detectedEncoding": "cp1252"}},
		{name: "cp1252 undefined byte", o: ReadOptions{Path: "undef.py", Encoding: "cp1252"}, code: fault.EncodingError, details: fault.Details{"requestedEncoding": "cp1252", "detectedEncoding": "latin-1"}},
		{name: "cookie utf-8 invalid", o: ReadOptions{Path: "cookie8.py", Encoding: "latin-1"}, code: fault.EncodingError, details: fault.Details{"requestedEncoding": "latin-1", "detectedEncoding": "utf-8"}},
		{name: "ascii requested non-ascii", o: ReadOptions{Path: "ascii.py", Encoding: "ascii"}, code: fault.EncodingError, details: fault.Details{"requestedEncoding": "ascii", "detectedEncoding": "utf-8"}},
		{name: "missing", o: ReadOptions{Path: "pkg/nope.py"}, code: fault.FileNotFound, details: fault.Details{"path": "pkg/nope.py", "workspaceRoot": w.Root()}},
		{name: "under a file", o: ReadOptions{Path: "a.py/x"}, code: fault.FileNotFound, details: fault.Details{"path": "a.py/x"}},
		{name: "directory", o: ReadOptions{Path: "pkg"}, code: fault.FileNotFound, details: fault.Details{"path": "pkg", "reason": "is a directory"}},
		{name: "root", o: ReadOptions{Path: ""}, code: fault.FileNotFound, details: fault.Details{"reason": "is a directory"}},
		{name: "outside", o: ReadOptions{Path: "../x"}, code: fault.PermissionDenied, details: fault.Details{"path": "../x", "reason": ReasonOutside}},
		{name: "too large", o: ReadOptions{Path: "big.py", MaxBytes: 100}, code: fault.FileTooLarge, details: fault.Details{"size": int64(len(files["big.py"])), "limit": int64(100)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := w.ReadFile(context.Background(), tc.o)
			if tc.code != "" {
				fe, ok := fault.As(err)
				if !ok || fe.Code != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				for k, v := range tc.details {
					if fe.Details[k] != v {
						t.Errorf("details[%s] = %#v, want %#v (%s)", k, fe.Details[k], v, fe.Message)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rel := strings.TrimPrefix(tc.o.Path, "/")
			if got.Content != tc.content || got.RelativePath != rel || got.Path != filepath.Join(w.Root(), rel) {
				t.Errorf("got %q %q %q, want %q", got.Content, got.Path, got.RelativePath, tc.content)
			}
			m := got.Metadata
			raw := files[rel]
			sum := sha256.Sum256([]byte(raw))
			if m.Size != int64(len(raw)) || m.Lines != tc.lines || m.Encoding != tc.enc || m.Language != tc.lang || m.Hash != hex.EncodeToString(sum[:]) {
				t.Errorf("metadata = %+v, want lines %d enc %s lang %q", m, tc.lines, tc.enc, tc.lang)
			}
			if _, err := time.Parse(time.RFC3339, m.LastModified); err != nil {
				t.Errorf("lastModified: %v", err)
			}
			if tc.rng == nil {
				if m.LineRange != nil || m.LinesReturned != nil || m.TotalLines != nil {
					t.Errorf("range metadata without lineRange: %+v", m)
				}
				return
			}
			if *m.LinesReturned != tc.returned || *m.TotalLines != tc.lines || *m.LineRange != *tc.rng {
				t.Errorf("range metadata = %d %d %+v, want %d %d %+v", *m.LinesReturned, *m.TotalLines, *m.LineRange, tc.returned, tc.lines, *tc.rng)
			}
		})
	}

	got, err := w.ReadFile(context.Background(), ReadOptions{Path: "a.py", OmitMetadata: true})
	if err != nil || got.Metadata != nil {
		t.Errorf("OmitMetadata: %+v %v", got, err)
	}
}

// TestReadStreaming: a lineRange read of a file over the cap gives the
// same answer as a whole read would, for every encoding shape.
func TestReadStreaming(t *testing.T) {
	big := numbered(5000, "\n")
	files := map[string]string{
		"big.py":   big,
		"crlf.py":  numbered(3000, "\r\n"),
		"noeol.py": big + "tail",
		"bom.py":   "\xef\xbb\xbf" + big,
		"latin.py": "# coding: latin-1\n" + strings.Repeat("s = '\xe9'\n", 3000),
		"utf16.py": le16(numbered(3000, "\n")),
		"bad8.py":  big + "\xff\n",
	}
	w := tree(t, files)
	ranges := []LineRange{{0, 0}, {0, 2}, {1, 1}, {2999, 2999}, {2995, 3002}, {4995, 9999}, {4990, 5005}, {1234, 1240}}
	for name := range files {
		if name == "bad8.py" {
			continue // a range read decodes only its lines: checked below
		}
		for _, r := range ranges {
			t.Run(fmt.Sprintf("%s/%d-%d", name, r.Start, r.End), func(t *testing.T) {
				whole, werr := w.ReadFile(context.Background(), ReadOptions{Path: name, LineRange: &r})
				stream, serr := w.ReadFile(context.Background(), ReadOptions{Path: name, LineRange: &r, MaxBytes: 4096})
				if fault.CodeOf(werr) != fault.CodeOf(serr) {
					t.Fatalf("whole err %v, stream err %v", werr, serr)
				}
				if werr != nil {
					return
				}
				if whole.Content != stream.Content || *whole.Metadata.LineRange != *stream.Metadata.LineRange ||
					whole.Metadata.Hash != stream.Metadata.Hash || whole.Metadata.Lines != stream.Metadata.Lines ||
					whole.Metadata.Encoding != stream.Metadata.Encoding || *whole.Metadata.LinesReturned != *stream.Metadata.LinesReturned {
					t.Errorf("whole %q %+v\nstream %q %+v", whole.Content, *whole.Metadata, stream.Content, *stream.Metadata)
				}
			})
		}
	}
	// The kept lines are bounded by the cap too.
	_, err := w.ReadFile(context.Background(), ReadOptions{Path: "big.py", LineRange: &LineRange{0, 4999}, MaxBytes: 4096})
	if fault.CodeOf(err) != fault.FileTooLarge {
		t.Errorf("huge range: %v", err)
	}
	// The bad byte is outside the range: a range read decodes only its lines.
	if _, err := w.ReadFile(context.Background(), ReadOptions{Path: "bad8.py", LineRange: &LineRange{0, 1}, MaxBytes: 4096}); err != nil {
		t.Errorf("range before bad byte: %v", err)
	}
	_, err = w.ReadFile(context.Background(), ReadOptions{Path: "bad8.py", LineRange: &LineRange{5000, 5000}, MaxBytes: 4096})
	if fault.CodeOf(err) != fault.EncodingError {
		t.Errorf("range on bad byte: %v", err)
	}
}

func TestReadSpecialFiles(t *testing.T) {
	w := tree(t, map[string]string{"pkg/a.py": "x = 1\n"})
	fifo := filepath.Join(w.Root(), "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := w.ReadFile(context.Background(), ReadOptions{Path: "pipe.py"})
		done <- err
	}()
	select {
	case err := <-done:
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.PermissionDenied || fe.Details["reason"] != ReasonNotRegular {
			t.Errorf("fifo: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	out := t.TempDir()
	mkfile(t, filepath.Join(out, "s.py"), "secret")
	if err := os.Symlink(filepath.Join(out, "s.py"), filepath.Join(w.Root(), "link.py")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReadFile(context.Background(), ReadOptions{Path: "link.py"}); fault.CodeOf(err) != fault.PermissionDenied {
		t.Errorf("symlink out: %v", err)
	}
	if err := os.Symlink("pkg/a.py", filepath.Join(w.Root(), "in.py")); err != nil {
		t.Fatal(err)
	}
	got, err := w.ReadFile(context.Background(), ReadOptions{Path: "in.py"})
	if err != nil || got.Content != "x = 1\n" || got.RelativePath != "in.py" {
		t.Errorf("symlink in: %+v %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(w.Root(), "locked.py"), []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if _, err := w.ReadFile(context.Background(), ReadOptions{Path: "locked.py"}); fault.CodeOf(err) != fault.PermissionDenied {
			t.Errorf("unreadable: %v", err)
		}
	}
}

func TestReadSource(t *testing.T) {
	w := tree(t, map[string]string{
		"latin.py": "# coding: latin-1\ns = '\xe9'\n",
		"bom.py":   "\xef\xbb\xbfé",
		"bad.py":   "\xff",
	})
	tests := []struct {
		path, want, enc, code string
	}{
		{path: "latin.py", want: "# coding: latin-1\ns = 'é'\n", enc: "latin-1"},
		{path: "bom.py", want: "é", enc: "utf-8"},
		{path: "bad.py", code: fault.EncodingError},
		{path: "/etc/passwd", code: fault.PermissionDenied},
		{path: "missing.py", code: fault.FileNotFound},
	}
	for _, tc := range tests {
		p := tc.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(w.Root(), p)
		}
		got, enc, err := w.ReadSource(p, 0)
		if tc.code != "" {
			if fault.CodeOf(err) != tc.code {
				t.Errorf("%s: err = %v, want %s", tc.path, err, tc.code)
			}
			continue
		}
		if err != nil || string(got) != tc.want || enc != tc.enc {
			t.Errorf("%s: %q %q %v", tc.path, got, enc, err)
		}
	}
	if _, _, err := w.ReadSource(filepath.Join(w.Root(), "latin.py"), 3); fault.CodeOf(err) != fault.FileTooLarge {
		t.Errorf("cap: %v", err)
	}
}

// TestReadBytes: the bytes on disk, undecoded, under the same confinement
// and limits as ReadSource.
func TestReadBytes(t *testing.T) {
	w := tree(t, map[string]string{
		"latin.py":       "# coding: latin-1\ns = '\xe9'\n",
		"bom.py":         "\xef\xbb\xbfé",
		"pyproject.toml": "[tool.black]\n",
		"pkg/":           "",
	})
	outside := filepath.Join(t.TempDir(), "secret.toml")
	mkfile(t, outside, "token = 'x'\n")
	if err := os.Symlink(outside, filepath.Join(w.Root(), "escape.toml")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want, code string }{
		{path: "latin.py", want: "# coding: latin-1\ns = '\xe9'\n"},
		{path: "bom.py", want: "\xef\xbb\xbfé"},
		{path: "pyproject.toml", want: "[tool.black]\n"},
		{path: "escape.toml", code: fault.PermissionDenied},
		{path: "../" + filepath.Base(filepath.Dir(outside)) + "/secret.toml", code: fault.PermissionDenied},
		{path: "pkg", code: fault.FileNotFound},
		{path: "missing.toml", code: fault.FileNotFound},
	} {
		got, err := w.ReadBytes(filepath.Join(w.Root(), tc.path), 0)
		if tc.code != "" {
			if fault.CodeOf(err) != tc.code {
				t.Errorf("%s: err = %v, want %s", tc.path, err, tc.code)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.path, got, err, tc.want)
		}
	}
	if _, err := w.ReadBytes(filepath.Join(w.Root(), "latin.py"), 3); fault.CodeOf(err) != fault.FileTooLarge {
		t.Errorf("cap: %v", err)
	}
}

func TestRootExists(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if !w.RootExists() {
		t.Fatal("an open workspace's root does not exist")
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	if w.RootExists() {
		t.Error("a removed root still exists")
	}
}
