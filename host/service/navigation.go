package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pylex"
)

// IndexTool is the internal tool of the indexer plugin: files in,
// navigation summaries out (see plugins/indexer).
const IndexTool = "index_files"

// navTimeout bounds one navigation query when the caller set no deadline.
const navTimeout = 10 * time.Second

// pluginSummarizer runs the indexer plugin for host/index.
type pluginSummarizer struct {
	p       Plugins
	version string
	root    string // the workspace's absolute root; "" summarizes typeshed's stubs
	metrics *metrics.Recorder
}

// PluginIdentity is implemented by runtimes that can say which build of
// a plugin serves a tool (its SHA-256), so caches keyed by it invalidate
// when the plugin changes.
type PluginIdentity interface {
	PluginSHA256(tool string) string
}

func (s pluginSummarizer) Version() string { return s.version }

// indexArgs are the indexer's arguments: the Python whose
// `sys.version_info` and `sys.platform` conditions it decides.
type indexArgs struct {
	PythonMinor int    `json:"pythonMinor"`
	Platform    string `json:"platform"`
}

func (s pluginSummarizer) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	args, err := json.Marshal(indexArgs{PythonMinor: t.Minor, Platform: t.Platform})
	if err != nil {
		return nil, err
	}
	req := &abi.Request{Tool: IndexTool, Arguments: args}
	if s.root == "" {
		// Typeshed's stubs, for every workspace: a lane of their own.
		ctx = plugins.WithTenant(ctx, "index:typeshed")
		for _, f := range files {
			req.Files = append(req.Files, abi.File{URI: "typeshed:///" + f.Rel, Path: f.Rel, Source: f.Text})
		}
	} else {
		// Index work queues in a lane of its own per workspace, taking turns
		// with the tenants' requests, also when a query brings the index up to
		// date: every navigation query on the workspace, whoever sent it,
		// waits for that refresh, so it must not wait behind the format and
		// diagnostics calls its caller's tenant queued first.
		lane := "index:"
		if index.IsEarly(ctx) {
			// A query waits for these (index.Early): ahead of the build's
			// batches, which the lanes' turns put it between.
			lane = "index-early:"
		}
		ctx = plugins.WithTenant(ctx, lane+s.root)
		for _, f := range files {
			// The URI other tools use for the file: the runtime sends later
			// calls about it to the worker that has its tree.
			uri := workspace.FileURI(filepath.Join(s.root, filepath.FromSlash(f.Rel)))
			req.Files = append(req.Files, abi.File{URI: uri, Path: f.Rel, Source: f.Text})
		}
	}
	raw, err := observePluginCall(s.metrics, IndexTool, func() (json.RawMessage, error) { return s.p.Call(ctx, IndexTool, req) })
	if err != nil {
		return nil, err
	}
	return pluginresult.DecodeSummaries(raw, len(files))
}

// serves reports whether a plugin serves tool.
func (s *Service) serves(tool string) bool {
	if s.cfg.Plugins == nil {
		return false
	}
	for _, t := range s.cfg.Plugins.Tools() {
		if t == tool {
			return true
		}
	}
	return false
}

// indexerVersion names the indexer plugin's build for the caches.
func (s *Service) indexerVersion() string {
	if pi, ok := s.cfg.Plugins.(PluginIdentity); ok {
		return pi.PluginSHA256(IndexTool)
	}
	return "unknown"
}

// newStubSets returns the process's typeshed units, summarized by the
// indexer plugin and cached under StateDir/stubs (nil without stubs or
// an indexer).
func (s *Service) newStubSets() *index.StubSets {
	if s.cfg.Stubs == nil || !s.serves(IndexTool) {
		return nil
	}
	return index.NewStubSets(index.StubConfig{
		Stubs:       s.cfg.Stubs,
		Summarizer:  pluginSummarizer{p: s.cfg.Plugins, version: s.indexerVersion(), metrics: s.cfg.Metrics},
		CacheDir:    stubsDir(s.cfg.StateDir),
		PreparedDir: stubsDir(s.cfg.PreparedDir),
		Logger:      s.cfg.Logger,
	})
}

// stubsDir is where a state directory keeps typeshed's summaries, "" for
// none.
func stubsDir(state string) string {
	if state == "" {
		return ""
	}
	return filepath.Join(state, "stubs")
}

// PrepareStubs summarizes every typeshed stub module for each of targets
// into StateDir (`pyws prepare`: a state made at build time, so that no
// server summarizes them at start-up) and returns the modules per target.
func (s *Service) PrepareStubs(ctx context.Context, targets []index.Target) ([]int, error) {
	if s.stubs == nil {
		return nil, errors.New("no typeshed stubs, or no plugin serves " + IndexTool)
	}
	counts := make([]int, len(targets))
	for i, t := range targets {
		n, err := s.stubs.LoadAll(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("stubs for %s: %w", t, err)
		}
		counts[i] = n
	}
	return counts, nil
}

// indexTarget is the Python the workspace's index follows
// (pyproject.TypesTarget: configuration, else the workspace's
// interpreter, else 3.12). Asking the interpreter takes a while the first
// time: the index asks at its first build, in the background.
func (st *workspaceState) indexTarget() index.Target {
	cfg := st.diag.config.Config()
	version, platform := "", ""
	if interp := st.diag.interpreter(st.ws.Root(), cfg); interp != nil {
		version, platform = interp.Version, interp.Platform
	}
	minor, platform := cfg.TypesTarget(version, platform)
	return index.Target{Minor: minor, Platform: platform}
}

// indexStdlib is the standard library source directory of the
// workspace's interpreter, where hovers find the docstrings typeshed
// lacks ("" when no interpreter answers).
func (st *workspaceState) indexStdlib() string {
	if interp := st.diag.interpreter(st.ws.Root(), st.diag.config.Config()); interp != nil {
		return interp.Stdlib
	}
	return ""
}

// indexSite are the workspace interpreter's search directories other
// than the standard library's: where imports the workspace does not
// define find installed packages (nil when no interpreter answers).
func (st *workspaceState) indexSite() []string {
	if interp := st.diag.interpreter(st.ws.Root(), st.diag.config.Config()); interp != nil {
		return interp.Site
	}
	return nil
}

// newIndex builds the index of a workspace.
func (s *Service) newIndex(st *workspaceState) *index.Index {
	version := s.indexerVersion()
	cacheDir := ""
	if s.cfg.StateDir != "" {
		cacheDir = filepath.Join(s.cfg.StateDir, "index")
	}
	ws := st.ws
	return index.New(index.Config{
		Root:  ws.Root(),
		Files: ws.PythonFiles,
		Read: func(abs string) ([]byte, error) {
			text, _, err := ws.ReadSource(abs, 0)
			return text, err
		},
		ListDir: func(rel string) ([]string, error) {
			entries, err := ws.ReadDir(rel)
			names := make([]string, len(entries))
			for i, e := range entries {
				names[i] = e.Name
			}
			return names, err
		},
		Summarizer: pluginSummarizer{p: s.cfg.Plugins, version: version, root: ws.Root(), metrics: s.cfg.Metrics},
		CacheDir:   cacheDir,
		TargetFunc: st.indexTarget,
		StdlibFunc: st.indexStdlib,
		SiteFunc:   st.indexSite,
		Stubs:      s.stubs,
		Logger:     s.cfg.Logger,
	})
}

// navQuery is what every navigation tool does first: the index must be
// built, the file readable Python, the position inside it, and the index
// fresh for everything the answer depends on.
//
// Before the first build is done, a tool that answers from one file and
// its imports (notReady is WORKSPACE_NOT_LOADED: definition, hover, type
// definition) asks the index's early view (index.Early); references and
// rename at a position asked it first (earlyComplete), and the others
// (WORKSPACE_NOT_INDEXED) need every file and refuse.
func navQuery(ctx context.Context, s *Session, a toolspec.Args, notReady string) (*sourceFile, *index.Index, *index.Hit, error) {
	x := s.ws.idx.Load()
	bySymbol := a.Has("symbol")
	// A symbol's lookup needs every file: only positions have early answers.
	early := notReady == fault.WorkspaceNotLoaded && !bySymbol && x != nil && !s.ws.loaded.Load()
	if !early {
		var err error
		if x, err = sessionIndex(s, notReady); err != nil { // a failed build drops it
			return nil, nil, nil, err
		}
	}
	var f *sourceFile
	if a.Has("uri") {
		var err error
		if f, err = s.readPython(a.String("uri"), s.Limits.MaxReadFileBytes); err != nil {
			return nil, nil, nil, err
		}
		if !bySymbol {
			if _, err := checkPosition(f, a); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	if early {
		e, err := x.EarlyAt(ctx, f.abs, a.Int("line"), a.Int("character"))
		if err != nil {
			return nil, nil, nil, indexError(ctx, err)
		}
		if e != nil {
			return f, e, e.At(f.abs, a.Int("line"), a.Int("character")), nil
		}
		// The build finished meanwhile: the whole index answers.
	}
	if err := x.Refresh(ctx); err != nil {
		return nil, nil, nil, indexError(ctx, err)
	}
	if f != nil {
		if err := x.EnsureFile(ctx, f.abs, f.text); err != nil {
			return nil, nil, nil, indexError(ctx, err)
		}
	}
	if bySymbol {
		from := ""
		if f != nil {
			from = f.abs
		}
		h, err := x.Lookup(a.String("symbol"), from)
		return f, x, h, err
	}
	return f, x, x.At(f.abs, a.Int("line"), a.Int("character")), nil
}

// sessionIndex is the index of the session's workspace once it is
// loaded (notReady until then).
func sessionIndex(s *Session, notReady string) (*index.Index, error) {
	if err := s.ws.requireLoaded(notReady); err != nil {
		return nil, err
	}
	x := s.ws.idx.Load()
	if x == nil {
		return nil, fault.New(fault.ServerUnavailable, fault.Details{"tool": IndexTool, "reason": "no plugin serves " + IndexTool},
			"navigation needs the indexer plugin (tool %s), which is not installed", IndexTool)
	}
	return x, nil
}

// symbolQuery is navQuery for a tool that needs a symbol at the position:
// where the index finds none it answers noSymbolCode (with the file, for a
// caller that explains why).
func symbolQuery(ctx context.Context, s *Session, a toolspec.Args, notReady, noSymbolCode string) (*sourceFile, *index.Index, *index.Hit, error) {
	f, x, h, err := navQuery(ctx, s, a, notReady)
	if err == nil && h == nil {
		err = noSymbol(noSymbolCode, a)
	}
	return f, x, h, err
}

func indexError(ctx context.Context, err error) error {
	if _, ok := fault.As(err); ok {
		return err
	}
	if ctx.Err() != nil {
		return fault.New(fault.Timeout, fault.Details{"reason": ctx.Err().Error()}, "the index could not be brought up to date in time")
	}
	return err
}

func withNavDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, navTimeout)
}

func toRange(sp navindex.Span) abi.Range {
	return abi.Range{Start: abi.Position{Line: int(sp.Line), Character: int(sp.Col)}, End: abi.Position{Line: int(sp.Line), Character: int(sp.End)}}
}

// LocationsResult is the result of get_definition and get_references.
type LocationsResult struct {
	Locations  []ContextLocation `json:"locations"`
	TotalCount *int              `json:"totalCount,omitempty"`
	// Truncated: get_references stopped at the tier's maximum.
	Truncated bool `json:"truncated,omitempty" doc:"get_references: locations stops at the tier's maximum; totalCount counts them all"`
}

func noSymbol(code string, a toolspec.Args) error {
	return fault.New(code, fault.Details{"line": a.Int("line"), "character": a.Int("character")},
		"no symbol at line %d, character %d (keywords, literals, comments, strings and whitespace have none)", a.Int("line"), a.Int("character"))
}

func runDefinition(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	_, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotLoaded, fault.NoDefinitionFound)
	if err != nil {
		return nil, err
	}
	locs, err := x.Definition(h)
	if err != nil {
		return nil, err
	}
	return LocationsResult{Locations: s.withContext(locs, a.Int("contextLines"))}, nil
}

func runTypeDefinition(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	_, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotLoaded, fault.NoDefinitionFound)
	if err != nil {
		return nil, err
	}
	locs, external, err := x.TypeDefinition(h)
	if err != nil {
		return nil, err
	}
	return TypeDefinitionResult{Locations: s.withContext(locs, 0), External: external}, nil
}

// TypeDefinitionResult is get_type_definition's result. A union of
// workspace classes and others (Node | None) has no location for the
// others; external names them, as EXTERNAL_DEFINITION's details do
// when every class is outside the workspace.
type TypeDefinitionResult struct {
	Locations []ContextLocation `json:"locations"`
	External  []string          `json:"external,omitempty" doc:"qualified names of the union's classes defined outside the workspace (builtins.str, types.NoneType), when others are in it"`
}

func runReferences(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	include := true
	if a.Has("includeDeclaration") {
		include = a.Bool("includeDeclaration")
	}
	var locs []index.Location
	err := atSymbol(ctx, s, a, false, func(x *index.Index, h *index.Hit) (err error) {
		locs, err = x.References(ctx, h, include)
		return err
	})
	if err != nil {
		return nil, err
	}
	total := len(locs)
	if max := s.Limits.MaxReferences; max > 0 && len(locs) > max {
		locs = locs[:max]
	}
	return LocationsResult{Locations: s.withContext(locs, a.Int("contextLines")), TotalCount: &total, Truncated: total > len(locs)}, nil
}

// atSymbol runs a references or rename query on the symbol a call
// addresses: during the first build on the index's early view when it
// can answer (earlyComplete), else on the whole index (WORKSPACE_NOT_INDEXED
// until it is built). renaming: a keyword where no symbol is, is its own
// error (keywordAt).
func atSymbol(ctx context.Context, s *Session, a toolspec.Args, renaming bool, query func(x *index.Index, h *index.Hit) error) error {
	if early, err := earlyComplete(ctx, s, a, renaming, query); early {
		return err
	}
	f, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotIndexed, fault.NoSymbolFound)
	if renaming && fault.CodeOf(err) == fault.NoSymbolFound && !a.Has("symbol") {
		if kw := keywordAt(f, a); kw != nil {
			return kw
		}
	}
	if err != nil {
		return err
	}
	return query(x, h)
}

// earlyComplete answers a references or rename query at a position
// during the first build from the index's early view
// (index.EarlyComplete: the files holding the name and what resolving
// them needs), whose answer is the complete index's; query runs with
// the symbol there (NO_SYMBOL_FOUND where there is none). false: the
// build is done, or the name is in too many files; ask the whole index
// (WORKSPACE_NOT_INDEXED until it is built).
func earlyComplete(ctx context.Context, s *Session, a toolspec.Args, renaming bool, query func(x *index.Index, h *index.Hit) error) (bool, error) {
	x := s.ws.idx.Load()
	if x == nil || s.ws.loaded.Load() || a.Has("symbol") || !a.Has("uri") {
		return false, nil
	}
	f, err := s.readPython(a.String("uri"), s.Limits.MaxReadFileBytes)
	if err != nil {
		return true, err
	}
	if _, err := checkPosition(f, a); err != nil {
		return true, err
	}
	ok, err := x.EarlyComplete(ctx, f.abs, a.Int("line"), a.Int("character"), func(e *index.Index, h *index.Hit) error {
		if h == nil {
			if kw := keywordAt(f, a); kw != nil && renaming {
				return kw
			}
			return noSymbol(fault.NoSymbolFound, a)
		}
		return query(e, h)
	})
	if err != nil {
		if _, isFault := fault.As(err); !isFault {
			if ctx.Err() != nil {
				// Out of time growing the early index (what it summarized
				// stays cached for the build): answer as without it.
				return false, nil
			}
			err = indexError(ctx, err)
		}
		return true, err
	}
	return ok, nil
}

// RenameResult is rename_symbol's result.
type RenameResult struct {
	Changes       map[string][]abi.TextEdit `json:"changes"`
	TotalEdits    int                       `json:"totalEdits"`
	FilesAffected int                       `json:"filesAffected"`
}

func runRename(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	var edits []index.Edit
	err := atSymbol(ctx, s, a, true, func(x *index.Index, h *index.Hit) (err error) {
		edits, err = x.Rename(ctx, h, a.String("newName"))
		return err
	})
	if err != nil {
		return nil, err
	}
	byFile := map[string][]abi.TextEdit{}
	var order []string
	for _, e := range edits {
		if _, ok := byFile[e.Abs]; !ok {
			order = append(order, e.Abs)
		}
		byFile[e.Abs] = append(byFile[e.Abs], abi.TextEdit{Range: toRange(e.Span), NewText: e.NewText})
	}
	sort.Strings(order)
	res := RenameResult{Changes: map[string][]abi.TextEdit{}, TotalEdits: len(edits), FilesAffected: len(order)}
	for _, abs := range order {
		// Remember the content the edits were computed against, so an
		// apply after the file changed is FILE_MODIFIED.
		raw, err := s.ws.ws.ReadBytes(abs, 0)
		if err != nil {
			return nil, fault.New(fault.FileNotFound, fault.Details{"path": abs}, "%s vanished while renaming", abs)
		}
		sum := sha256.Sum256(raw)
		if s.svc.cfg.Edits != nil {
			s.svc.cfg.Edits.Remember(abs, byFile[abs], hex.EncodeToString(sum[:]))
		}
		res.Changes[workspace.FileURI(abs)] = byFile[abs]
	}
	return res, nil
}

// keywordAt is CANNOT_RENAME when a keyword of code stands at the
// position where the index found no symbol (a soft keyword there is in its
// keyword role: as a name it would be a symbol); nil otherwise, also in
// strings and comments, which stay NO_SYMBOL_FOUND.
func keywordAt(f *sourceFile, a toolspec.Args) error {
	off, err := f.index.Offset(a.Int("line"), a.Int("character"))
	if err != nil {
		return nil
	}
	kw, ok := pylex.KeywordAt(f.text, off)
	if !ok {
		return nil
	}
	what := "a Python keyword"
	if pylex.IsSoftKeyword(kw) {
		what = "a Python soft keyword here"
	}
	return fault.New(fault.CannotRename, fault.Details{"name": kw, "reason": "keyword", "line": a.Int("line"), "character": a.Int("character")},
		"%s is %s and cannot be renamed", kw, what)
}

// HoverResult is get_hover's result.
type HoverResult struct {
	Contents string    `json:"contents"`
	Range    abi.Range `json:"range"`
}

func runHover(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	_, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotLoaded, fault.NoHoverInfo)
	if err != nil {
		return nil, err
	}
	contents, err := x.Hover(ctx, h)
	if err != nil {
		return nil, err
	}
	return HoverResult{Contents: contents, Range: toRange(h.Span())}, nil
}
