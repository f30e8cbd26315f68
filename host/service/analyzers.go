package service

import (
	"context"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// sourceFile is a Python file read for an analyzer.
type sourceFile struct {
	abs, rel string
	uri      string
	text     []byte // UTF-8
	index    *textpos.Index
}

// readPython resolves uri and reads it as Python source, refusing
// non-Python files with INVALID_PYTHON.
func (s *Session) readPython(uri string, maxBytes int64) (*sourceFile, error) {
	abs, rel, err := s.ws.ws.ResolveURI(uri)
	if err != nil {
		return nil, err
	}
	abs, rel = s.ws.ws.Canonical(abs)
	text, _, err := s.ws.ws.ReadSource(abs, maxBytes)
	if err != nil {
		return nil, err
	}
	if !workspace.IsPythonSource(abs, text) {
		return nil, fault.New(fault.InvalidPython, fault.Details{"path": abs},
			"%s is not a Python file: expected a .py or .pyi file, or a script with a python shebang line", rel)
	}
	return &sourceFile{abs: abs, rel: rel, uri: workspace.FileURI(abs), text: text, index: textpos.New(text)}, nil
}

// checkPosition refuses a line or character outside the file.
func checkPosition(f *sourceFile, a toolspec.Args) (int, error) {
	off, err := positionOffset(f, a.Int("line"), a.Int("character"))
	if err != nil {
		return 0, err
	}
	return off, nil
}

// positionOffset is the byte offset of a position in f, INVALID_POSITION
// when the file has no such line or the line no such character.
func positionOffset(f *sourceFile, line, char int) (int, *fault.Error) {
	if line >= f.index.LineCount() {
		return 0, fault.New(fault.InvalidPosition, fault.Details{"line": line, "character": char, "lineCount": f.index.LineCount()},
			"line %d is past the end of %s (%d lines)", line, f.rel, f.index.LineCount())
	}
	off, err := f.index.Offset(line, char)
	if err != nil {
		return 0, fault.New(fault.InvalidPosition, fault.Details{"line": line, "character": char, "lineLength": f.index.LineLength(line)},
			"character %d is outside line %d of %s (length %d UTF-16 code units)", char, line, f.rel, f.index.LineLength(line))
	}
	return off, nil
}

// callPlugin sends one file and the arguments to the plugin serving tool.
func (s *Session) callPlugin(ctx context.Context, tool string, a toolspec.Args, files ...*sourceFile) (json.RawMessage, error) {
	argJSON, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	return s.callPluginEncoded(ctx, tool, argJSON, files...)
}

// callPluginEncoded is callPlugin with the arguments already encoded.
func (s *Session) callPluginEncoded(ctx context.Context, tool string, argJSON json.RawMessage, files ...*sourceFile) (json.RawMessage, error) {
	req := &abi.Request{Tool: tool, Arguments: argJSON}
	for _, f := range files {
		req.Files = append(req.Files, abi.File{URI: f.uri, Path: filepath.ToSlash(f.rel), Source: f.text})
	}
	return observePluginCall(s.svc.cfg.Metrics, tool, func() (json.RawMessage, error) {
		return s.svc.cfg.Plugins.Call(ctx, tool, req)
	})
}

// observePluginCall runs call and records its duration and outcome.
func observePluginCall(m *metrics.Recorder, tool string, call func() (json.RawMessage, error)) (json.RawMessage, error) {
	start := time.Now()
	out, err := call()
	code := ""
	if err != nil {
		if code = fault.CodeOf(err); code == "" {
			code = "error"
		}
	}
	m.PluginCall(tool, code, time.Since(start))
	return out, err
}
