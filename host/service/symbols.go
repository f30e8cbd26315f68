package service

import (
	"bytes"
	"context"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// SymbolInfo is one symbol find_symbols found.
type SymbolInfo struct {
	Name string `json:"name"`
	Kind string `json:"kind" doc:"class, function, method, property, variable or attribute"`
	// ContainerName is the module, then the classes and functions
	// around the symbol: containerName + "." + name is what symbol
	// addresses it by.
	ContainerName string       `json:"containerName" doc:"dotted module and enclosing classes (package.module.Class); with name, the symbol argument that addresses it"`
	Location      abi.Location `json:"location"`
	Signature     string       `json:"signature" doc:"one-line declaration: def f(a: int) -> str, class C(Base), x: int"`
}

// FindSymbolsResult is find_symbols' result.
type FindSymbolsResult struct {
	Symbols    []SymbolInfo `json:"symbols"`
	TotalCount int          `json:"totalCount" doc:"every match, also those past limit"`
	Truncated  bool         `json:"truncated" doc:"symbols stops at limit: totalCount is larger"`
}

func symbolInfo(s index.Symbol) SymbolInfo {
	container := s.Module
	if s.Container != "" {
		container += "." + s.Container
	}
	return SymbolInfo{Name: s.Name, Kind: s.Kind, ContainerName: container, Signature: s.Signature,
		Location: abi.Location{URI: workspace.FileURI(s.Abs), Range: toRange(s.Span)}}
}

// indexReady is the index of the session's workspace, built and brought
// up to date, for the tools that ask about the whole workspace.
func indexReady(ctx context.Context, s *Session, notReady string) (*index.Index, error) {
	x, err := sessionIndex(s, notReady)
	if err != nil {
		return nil, err
	}
	if err := x.Refresh(ctx); err != nil {
		return nil, indexError(ctx, err)
	}
	return x, nil
}

func runFindSymbols(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	x, err := indexReady(ctx, s, fault.WorkspaceNotIndexed)
	if err != nil {
		return nil, err
	}
	found := x.FindSymbols(a.String("query"), a.String("kind"), a.Int("limit"))
	res := FindSymbolsResult{Symbols: make([]SymbolInfo, len(found.Symbols)), TotalCount: found.Total, Truncated: found.Total > len(found.Symbols)}
	for i, sym := range found.Symbols {
		res.Symbols[i] = symbolInfo(sym)
	}
	return res, nil
}

// DocumentSymbol is one entry of a file's outline.
type DocumentSymbol struct {
	Name      string    `json:"name"`
	Kind      string    `json:"kind" doc:"class, function, method, property, variable or attribute"`
	Symbol    string    `json:"symbol" doc:"the dotted name that addresses it (the symbol argument)"`
	Signature string    `json:"signature" doc:"one-line declaration: def f(a: int) -> str, class C(Base), x: int"`
	Range     abi.Range `json:"range" doc:"the statement that first defines it: a def or class from its first decorator to the end of its body, an assignment (the name's range when unknown)"`
	// SelectionRange is the name.
	SelectionRange abi.Range `json:"selectionRange" doc:"the symbol's name where it is first defined"`
	// Children are a class's methods and attributes, or the classes and
	// functions a function defines that other modules can reach.
	Children []DocumentSymbol `json:"children,omitempty"`
}

// DocumentSymbolsResult is get_document_symbols' result.
type DocumentSymbolsResult struct {
	Symbols    []DocumentSymbol `json:"symbols"`
	TotalCount int              `json:"totalCount" doc:"every symbol of the outline, nested ones included"`
	Truncated  bool             `json:"truncated" doc:"the outline stops at limit symbols (in document order, parents before their children): totalCount is larger"`
}

func runDocumentSymbols(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	x, err := indexReady(ctx, s, fault.WorkspaceNotLoaded)
	if err != nil {
		return nil, err
	}
	f, err := s.readPython(a.String("uri"), s.Limits.MaxReadFileBytes)
	if err != nil {
		return nil, err
	}
	if err := x.EnsureFile(ctx, f.abs, f.text); err != nil {
		return nil, indexError(ctx, err)
	}
	// The first limit symbols in document order, parents before their
	// children; the rest only counted.
	limit, kept, total := a.Int("limit"), 0, 0
	var convert func(os []*index.OutlineSymbol) []DocumentSymbol
	convert = func(os []*index.OutlineSymbol) []DocumentSymbol {
		var out []DocumentSymbol
		for _, o := range os {
			total++
			if kept >= limit {
				convert(o.Children) // counted
				continue
			}
			kept++
			out = append(out, DocumentSymbol{Name: o.Name, Kind: o.Kind, Symbol: o.Qualified(), Signature: o.Signature,
				Range: extentRange(o.Extent, o.Span), SelectionRange: toRange(o.Span)})
			out[len(out)-1].Children = convert(o.Children)
		}
		return out
	}
	syms := convert(x.Outline(f.abs))
	if syms == nil {
		syms = []DocumentSymbol{}
	}
	return DocumentSymbolsResult{Symbols: syms, TotalCount: total, Truncated: total > kept}, nil
}

// extentRange is a statement's range, the name's when it is unknown.
func extentRange(x navindex.Extent, name navindex.Span) abi.Range {
	if x == (navindex.Extent{}) {
		return toRange(name)
	}
	return abi.Range{Start: abi.Position{Line: int(x.Line), Character: int(x.Col)}, End: abi.Position{Line: int(x.EndLine), Character: int(x.EndCol)}}
}

// maxContextLines bounds contextLines; maxContextWidth cuts each line
// returned with them, so nothing comes back unbounded.
const (
	maxContextLines = 10
	maxContextWidth = 300
)

// SourceContext is the source around a location.
type SourceContext struct {
	// StartLine is the 0-indexed line of Lines[0].
	StartLine int      `json:"startLine"`
	Lines     []string `json:"lines" doc:"the lines, without their line breaks; one longer than 300 bytes is cut there with …"`
}

// ContextLocation is a location with, when contextLines asked for it,
// the source around it.
type ContextLocation struct {
	abi.Location
	Context *SourceContext `json:"context,omitempty" doc:"with contextLines > 0: the location's line and contextLines lines either side"`
}

// withContext adds n lines either side to each location, reading each
// file once; a file that cannot be read leaves its locations without.
func (s *Session) withContext(locs []index.Location, n int) []ContextLocation {
	out := make([]ContextLocation, len(locs))
	lines := map[string][][]byte{}
	for i, l := range locs {
		out[i].Location = abi.Location{URI: workspace.FileURI(l.Abs), Range: toRange(l.Span)}
		if n <= 0 {
			continue
		}
		ls, ok := lines[l.Abs]
		if !ok {
			if text, _, err := s.ws.ws.ReadSource(l.Abs, s.Limits.MaxReadFileBytes); err == nil {
				ls = bytes.Split(text, []byte("\n"))
			}
			lines[l.Abs] = ls
		}
		if int(l.Line) >= len(ls) {
			continue
		}
		lo, hi := max(0, int(l.Line)-n), min(len(ls)-1, int(l.Line)+n)
		c := &SourceContext{StartLine: lo}
		for _, line := range ls[lo : hi+1] {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(line) > maxContextWidth {
				cut := maxContextWidth
				for cut > 0 && !utf8.RuneStart(line[cut]) {
					cut--
				}
				line = append(line[:cut:cut], "…"...)
			}
			c.Lines = append(c.Lines, string(line))
		}
		out[i].Context = c
	}
	return out
}

// CallItem is a function, method, class or module of a call hierarchy.
type CallItem struct {
	Name      string       `json:"name"`
	Kind      string       `json:"kind" doc:"function, method, class, or module for top-level code"`
	Symbol    string       `json:"symbol" doc:"the dotted name that addresses it (the symbol argument)"`
	Signature string       `json:"signature,omitempty"`
	Location  abi.Location `json:"location" doc:"its name where it is defined (a module: the file's start)"`
}

// Call is a caller (incoming) or callee (outgoing) with the calls.
type Call struct {
	CallItem
	// CallSites are the called names: in the caller's file for incoming,
	// in the function asked about (or the caller above) for outgoing.
	CallSites []abi.Location `json:"callSites" doc:"the called names, where the calls are"`
	Calls     []Call         `json:"calls,omitempty" doc:"with depth > 1: this one's own callers or callees"`
}

// CallHierarchyResult is get_call_hierarchy's result.
type CallHierarchyResult struct {
	Item       CallItem `json:"item" doc:"the function the hierarchy is about"`
	Direction  string   `json:"direction"`
	Calls      []Call   `json:"calls"`
	TotalCount int      `json:"totalCount" doc:"every caller or callee found, at every depth"`
	Truncated  bool     `json:"truncated" doc:"calls stops at limit: totalCount is larger"`
}

func callItem(s index.Symbol) CallItem {
	return CallItem{Name: s.Name, Kind: s.Kind, Symbol: s.Qualified(), Signature: s.Signature,
		Location: abi.Location{URI: workspace.FileURI(s.Abs), Range: toRange(s.Span)}}
}

func runCallHierarchy(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	_, x, h, err := symbolQuery(ctx, s, a, fault.WorkspaceNotIndexed, fault.NoSymbolFound)
	if err != nil {
		return nil, err
	}
	limit := a.Int("limit")
	c, err := x.CallHierarchy(ctx, h, a.String("direction") == "incoming", a.Int("depth"), limit)
	if err != nil {
		return nil, err
	}
	var convert func(ns []*index.CallNode) []Call
	convert = func(ns []*index.CallNode) []Call {
		out := make([]Call, len(ns))
		for i, n := range ns {
			out[i] = Call{CallItem: callItem(n.Symbol), Calls: convert(n.Calls)}
			for _, site := range n.Sites {
				out[i].CallSites = append(out[i].CallSites, abi.Location{URI: workspace.FileURI(site.Abs), Range: toRange(site.Span)})
			}
		}
		return out
	}
	return CallHierarchyResult{Item: callItem(c.Root), Direction: a.String("direction"), Calls: convert(c.Calls),
		TotalCount: c.Total, Truncated: c.Total > index.CountCalls(c.Calls)}, nil
}
