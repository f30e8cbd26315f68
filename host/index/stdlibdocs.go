package index

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pyws/pyws/host/regularfile"
)

// Docstrings of the standard library: typeshed's stubs have none, so a
// hover on a stub symbol takes the Doc of the symbol with the same Qual
// in the interpreter's own source of the module (<stdlib>/<mod>.py or
// <mod>/__init__.py), as pyright does. Sources are summarized by the
// stub set's Summarizer on the first hover that needs them and kept per
// process, stub set (Target) and stdlib directory, shared by every
// workspace; on disk they share the stub set's summary cache (keyed by
// content hash). Anything that fails is no doc, never an error.

// srcKey names one stdlib source module of one interpreter.
type srcKey struct{ dir, module string }

// srcEntry is loading until done is closed, then f (nil: no source or
// unreadable). An entry whose load was canceled is removed before done
// closes, so a later hover tries again.
type srcEntry struct {
	done chan struct{}
	f    *File
}

// maxStdlibSource bounds a source read for docstrings (the largest 3.11
// module, _pydecimal.py, is 229 KB).
const maxStdlibSource = 4 << 20

var identPart = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// SourcesSummarized counts the stdlib sources summarized for docstrings
// (not found in a cache).
func (s *StubSet) SourcesSummarized() int64 {
	if s == nil {
		return 0
	}
	return s.srcSummarized.Load()
}

// loadedSource returns the summarized source of module under dir without
// loading: ok is false when nobody finished loading it.
func (s *StubSet) loadedSource(dir, module string) (f *File, ok bool) {
	if s == nil || dir == "" {
		return nil, true
	}
	s.mu.Lock()
	e := s.srcs[srcKey{dir, module}]
	s.mu.Unlock()
	if e == nil {
		return nil, false
	}
	select {
	case <-e.done:
		return e.f, true
	default:
		return nil, false
	}
}

// loadSource loads the source of module under dir (or waits for whoever
// is loading it) and returns it, nil when there is none.
func (s *StubSet) loadSource(ctx context.Context, dir, module string) *File {
	if s == nil || dir == "" {
		return nil
	}
	k := srcKey{dir, module}
	s.mu.Lock()
	e := s.srcs[k]
	mine := e == nil
	if mine {
		e = &srcEntry{done: make(chan struct{})}
		s.srcs[k] = e
	}
	s.mu.Unlock()
	if !mine {
		select {
		case <-e.done:
			return e.f
		case <-ctx.Done():
			return nil
		}
	}
	f, err := s.summarizeSource(ctx, dir, module)
	if err != nil { // canceled: not an answer, forget the entry
		s.mu.Lock()
		delete(s.srcs, k)
		s.mu.Unlock()
	}
	e.f = f
	close(e.done)
	return f
}

// summarizeSource reads and summarizes module's source; the error is the
// context's only.
func (s *StubSet) summarizeSource(ctx context.Context, dir, module string) (*File, error) {
	text, rel := readStdlibSource(dir, module)
	if text == nil {
		return nil, nil
	}
	f := newFile(rel, "")
	f.Module = module
	f.Hash = sha256.Sum256(text)
	key := cacheKey(f.Hash, rel)
	if f.S = s.cached(key); f.S == nil {
		job := s.summaryJob(&s.srcSummarized)
		if err := job.run(ctx, []pending{{f: f, text: text, key: key}}); err != nil {
			return nil, err
		}
	}
	f.prepare()
	return f, nil
}

// readStdlibSource reads module's source from the interpreter's stdlib
// directory dir (outside the workspace: the interpreter's own files),
// nil when it has none (C modules such as builtins), it is too large or
// the name is no dotted identifier. rel is its slash path under dir.
func readStdlibSource(dir, module string) (text []byte, rel string) {
	parts := strings.Split(module, ".")
	for _, p := range parts {
		if !identPart.MatchString(p) {
			return nil, ""
		}
	}
	base := strings.Join(parts, "/")
	for _, rel := range []string{base + ".py", base + "/__init__.py"} {
		if b, err := regularfile.Read(filepath.Join(dir, filepath.FromSlash(rel)), 0, maxStdlibSource); err == nil {
			return b, rel
		}
	}
	return nil, ""
}

// sourceDoc is the docstring of qual ("" the module's) in the
// summarized source f.
func sourceDoc(f *File, qual string) string {
	if f == nil || f.S == nil {
		return ""
	}
	if qual == "" {
		return f.S.Doc
	}
	sym, ok := f.qual(qual)
	if !ok {
		return ""
	}
	for _, d := range f.defs.of(sym) {
		if df := f.S.Defs[d]; !df.Import && df.Doc != "" {
			return df.Doc
		}
	}
	return ""
}
