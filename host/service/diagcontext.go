package service

import (
	"context"
	"fmt"
	"log/slog"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/pyws/pyws/host/diagcache"
	"github.com/pyws/pyws/host/interpreter"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// What the diagnostics plugin cannot know from one file, gathered for it
// (docs/diagnostics.md, "How imports are resolved"): the workspace's
// [tool.pyws] table and target Python version (host/pyproject); the
// top-level modules the configured interpreter has installed
// (host/interpreter); the file's module name and which of its imports
// the workspace has (host/index: the module map navigation links with);
// and the workspace files it imports names from, sent as extra files of
// the request for the signatures of called functions and PEP 702
// @deprecated marks.

const (
	maxContextFiles = 8
	maxContextBytes = 256 << 10
)

// diagState is what get_diagnostics keeps for one workspace; it belongs
// to the workspace's state and goes with it.
type diagState struct {
	config  *pyproject.Watched
	interps *interpreter.Prober
	cache   *diagcache.Cache
	// factsFrom is the build of the diagnostics plugin that has answered
	// with context facts (nil: none yet). Only such a plugin gets
	// facts-only calls: another (an operator's analyzer serving
	// get_diagnostics) would take one for a diagnostics request about a
	// module nobody asked about, and a faulty one would spin on it.
	factsFrom atomic.Pointer[string]
	// healthAsking is set while health_check's asking runs.
	healthAsking atomic.Bool
}

func newDiagState(ws *workspace.Workspace, log *slog.Logger, stateDir string) *diagState {
	interps := interpreter.NewProber(0, 0, log)
	if stateDir != "" {
		interps.SetCacheDir(filepath.Join(stateDir, "interpreters"))
	}
	return &diagState{
		config:  pyproject.Watch(ws, log),
		interps: interps,
		cache:   diagcache.New(),
	}
}

// interpreter returns the answer of the workspace's interpreter, nil when
// none is known.
func (d *diagState) interpreter(root string, cfg *pyproject.Config) *interpreter.Info {
	return d.interps.Info(interpreter.Find(root, cfg.Interpreter()))
}

// defaultPython is the version health_check reports while no interpreter
// has answered: the one pyws's analyzers and index target by default.
const defaultPython = "3.12"

// pythonRelease is the version health_check reports ("3.11.7"): the
// answer the workspace's prober has from the interpreter (configured, else
// the workspace's own), never a wait. Until it answers, defaultPython,
// which is then also what the index and diagnostics follow; it is asked in
// the background (one asking at a time; the prober keeps its answer, or
// its failure until its time to live has passed).
func (st *workspaceState) pythonRelease(configured string) string {
	path := configured
	if path == "" {
		path = interpreter.Find(st.ws.Root(), st.diag.config.Config().Interpreter())
	}
	if info := st.diag.interps.Known(path); info != nil {
		if info.Release != "" {
			return info.Release
		}
		return info.Version // an older pyws's remembered answer, until it is asked again
	}
	if st.diag.healthAsking.CompareAndSwap(false, true) {
		go func() {
			defer st.diag.healthAsking.Store(false)
			st.diag.interps.Info(path)
		}()
	}
	return defaultPython
}

// warmDiagnostics asks the workspace's interpreter in the background when
// the workspace opens, so the first get_diagnostics does not wait for a
// Python process (about 150 ms of a first call's 180).
func (st *workspaceState) warmDiagnostics() {
	st.diag.interpreter(st.ws.Root(), st.diag.config.Config())
}

// diagnosticsArgs gathers the "pyws" argument and the context files for
// f, all but the type findings, which check gives once the evaluator,
// started here in the background, is done. It is the largest part of a
// first call's work in the kernel (about 0.6 ms of 2 a call on Django),
// and needs nothing the rest reads, so it overlaps reading the context
// modules, asking the plugin for their facts and, where it takes longer,
// the file's own call (askDiagnosticsPlugin).
func (s *Session) diagnosticsArgs(ctx context.Context, f *sourceFile) (a *abi.DiagnosticsContext, context []*sourceFile, check *typeCheck) {
	d, root := s.ws.diag, s.ws.ws.Root()
	cfg := d.config.Config()
	tool := cfg.PywsTable()
	rel := filepath.ToSlash(f.rel)
	check = &typeCheck{done: true}
	a = &abi.DiagnosticsContext{Config: tool, Imports: map[string]int{},
		IsPackageInit: strings.HasPrefix(path.Base(rel), "__init__.")}
	interp := d.interpreter(root, cfg)
	version := ""
	if interp != nil {
		version = interp.Version
	}
	a.PythonVersion = cfg.TargetPython(version)
	defer func() {
		if interp != nil { // an empty list still says an interpreter is known
			a.Installed = interp.InstalledOf(a.Imports)
		}
	}()

	x := s.ws.idx.Load()
	if x == nil {
		return a, nil, check // no index (no indexer plugin): no import is judged
	}
	imps, err := x.Imports(ctx, f.abs, f.text)
	if err != nil {
		s.svc.cfg.Logger.Warn("imports unknown to get_diagnostics", "file", rel, "err", err)
		return a, nil, check
	}
	a.Module = imps.Module
	checked := make(chan []abi.TypeFinding, 1)
	check = &typeCheck{checked: checked}
	go func() { // after Imports: the index has these bytes of f
		defer func() {
			// Outside the request's goroutine a panic would end the
			// process: the file is checked without type findings.
			if r := recover(); r != nil {
				s.svc.cfg.Logger.Error("type findings panicked; the file is checked without them", "file", rel,
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				checked <- nil
			}
		}()
		var out []abi.TypeFinding
		for _, tf := range x.TypeFindings(f.abs) {
			out = append(out, abi.TypeFinding{Line: int(tf.Span.Line), Character: int(tf.Span.Col),
				EndCharacter: int(tf.Span.End), Code: tf.Code, Message: tf.Message})
		}
		checked <- out
	}()
	var files []*sourceFile
	sent := map[string]bool{rel: true}
	for _, im := range imps.Imports {
		a.Imports[im.Spec()] = im.Status
		// Context: the module's file, when a name imported from it is used.
		if !im.NamesUsed || im.Rel == "" || im.Name == "" || sent[im.Rel] || len(files) >= maxContextFiles {
			continue
		}
		sent[im.Rel] = true
		cf, ok := s.readContextModule(im.Rel)
		if !ok {
			continue
		}
		files = append(files, cf)
		a.Context = append(a.Context, abi.DiagnosticsContextFile{Path: im.Rel, Module: im.Name, IsPackageInit: im.RelIsInit})
	}
	return a, files, check
}

// typeCheck is the type findings of one file, checked in the background.
type typeCheck struct {
	checked <-chan []abi.TypeFinding // the one answer
	done    bool                     // found holds it
	found   []abi.TypeFinding
}

// ready reports whether the check is done, without waiting.
func (c *typeCheck) ready() bool {
	if !c.done {
		select {
		case c.found = <-c.checked:
			c.done = true
		default:
		}
	}
	return c.done
}

// wait returns the findings once the check is done.
func (c *typeCheck) wait() []abi.TypeFinding {
	if !c.done {
		c.found, c.done = <-c.checked, true
	}
	return c.found
}

// readContextModule reads a context module by the root-relative path the
// index lists it under, false when it cannot be read as Python. That path
// is confined and canonical already (the listing walks real directories),
// so readPython's resolution of a URI and its Canonical, two of the three
// symbolic-link walks it makes (about 5% of the kernel's CPU in a first
// pass, which reads 784 context modules for 300 files), are skipped;
// ReadSource still confines the path. The line index is left for the
// facts-only call that needs it (contextLines): most calls find the
// module's facts kept.
func (s *Session) readContextModule(rel string) (*sourceFile, bool) {
	abs := filepath.Join(s.ws.ws.Root(), filepath.FromSlash(rel))
	text, _, err := s.ws.ws.ReadSource(abs, maxContextBytes)
	if err != nil || !workspace.IsPythonSource(abs, text) {
		return nil, false
	}
	return &sourceFile{abs: abs, rel: filepath.FromSlash(rel), uri: workspace.FileURI(abs), text: text}, true
}

// contextLines is the line index of a context module readContextModule
// read.
func contextLines(cf *sourceFile) *textpos.Index {
	if cf.index == nil {
		cf.index = textpos.New(cf.text)
	}
	return cf.index
}
