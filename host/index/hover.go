package index

import (
	"context"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// Hover answers get_hover: a fenced Python line "(kind) signature", then
// the docstring as Markdown. A standard-library name's docstring comes
// from the interpreter's source of its module, summarized the first time
// a hover needs it: outside the index's lock, then the hover runs again
// (a summary takes milliseconds to a second through the plugin; a relink
// waiting on the lock that long would hold every query up behind it).
func (x *Index) Hover(ctx context.Context, h *Hit) (string, error) {
	md, need, err := x.hover(h)
	if err != nil || need == "" {
		return md, err
	}
	if x.stubs.loadSource(ctx, x.stdlib, need) == nil {
		return md, nil
	}
	if md2, _, err := x.hover(h); err == nil {
		return md2, nil
	}
	return md, nil
}

// hover is Hover under the read lock; need names the stdlib module whose
// source would give the docstring, when it is not loaded yet.
func (x *Index) hover(h *Hit) (md, need string, err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err = x.current(h)
	if err != nil {
		return "", "", err
	}
	name := h.f.S.Syms[h.o.Sym].Name
	var kind, sig, doc string
	var stdMod, stdQual string // the typeshed unit described, for its doc
	h = &Hit{f: h.f, o: h.o, t: x.follow(h.t)}
	switch h.t.kind {
	case tSym:
		df, ok := x.primaryDef(h.t)
		if !ok {
			break
		}
		kind, sig, doc = df.Kind.String(), df.Sig, df.Doc
		if h.t.f.typeshed {
			stdMod, stdQual = h.t.f.Module, h.t.f.S.Syms[h.t.sym].Qual
		}
		if df.Kind == navindex.KindModule {
			if f := x.moduleFile(df.Sig); f != nil {
				doc = f.S.Doc
				stdMod, stdQual = "", ""
				if f.typeshed {
					stdMod = f.Module
				}
			}
		}
		if sig == "" {
			sig = name
		}
	case tModule:
		kind, sig = "module", h.t.name
		if f := x.moduleFile(h.t.name); f != nil {
			doc = f.S.Doc
			if f.typeshed {
				stdMod = f.Module
			}
		}
	case tExt, tBuiltin:
		full := h.t.name
		if h.t.kind == tBuiltin {
			full = "builtins." + h.t.name
		}
		// The typeshed symbol or module the link found for the name.
		switch {
		case h.t.f != nil && h.t.f.typeshed && h.t.sym >= 0 && int(h.t.sym) < len(h.t.f.S.Syms):
			stdMod, stdQual = h.t.f.Module, h.t.f.S.Syms[h.t.sym].Qual
		case h.t.smod != "":
			stdMod = h.t.smod
		case h.t.kind == tExt && strings.HasPrefix(h.t.name, h.t.mod+"."):
			stdMod, stdQual = x.starredStub(h.t.name)
		}
		switch {
		case h.t.kind == tExt && h.t.name == h.t.mod:
			kind, sig = "module", h.t.name
		case strings.Contains(full, "("):
			kind, sig = "parameter", full[strings.LastIndexByte(full, '(')+1:]
		default:
			last := full[strings.LastIndexByte(full, '.')+1:]
			kind, sig = guessKind(last), last
		}
	}
	// The evaluator's line has the types, in pyright's notation; the
	// summary's signature is the fallback where it knows nothing.
	line := x.typesLocked().HoverAt(h.f, h.o)
	if line == "" && kind != "" {
		line = "(" + kind + ") " + sig
	}
	if line == "" {
		return "", "", fault.New(fault.NoHoverInfo, fault.Details{"name": name}, "no information about %s", name)
	}
	if doc == "" && stdMod != "" {
		if f, ok := x.stubs.loadedSource(x.stdlib, stdMod); ok {
			doc = sourceDoc(f, stdQual)
		} else {
			need = stdMod
		}
	}
	var sb strings.Builder
	sb.WriteString("```python\n")
	sb.WriteString(line)
	sb.WriteString("\n```")
	if doc != "" {
		sb.WriteString("\n---\n")
		sb.WriteString(doc)
	}
	return sb.String(), need, nil
}

// guessKind names what an external name probably is: classes are
// capitalised, constants upper case, the rest functions.
func guessKind(name string) string {
	switch {
	case name == "":
		return "variable"
	case strings.ToUpper(name) == name:
		return "variable"
	case name[0] >= 'A' && name[0] <= 'Z':
		return "class"
	}
	return "function"
}

// primaryDef is the definition hover describes: the first real one,
// from the source file rather than its stub, except that a stub's
// signature wins when the source has none annotated.
func (x *Index) primaryDef(t target) (navindex.Def, bool) {
	pick := func(f *File, sym int32) (navindex.Def, bool) {
		for _, d := range f.defs.of(sym) {
			if df := f.S.Defs[d]; !df.Import {
				return df, true
			}
		}
		return navindex.Def{}, false
	}
	y := t.f.S.Syms[t.sym]
	if t.f.stub && y.Qual != "" {
		for _, g := range x.siblings(t.f) {
			if s, ok := g.qual(y.Qual); ok && !g.stub {
				if df, ok := pick(g, s); ok {
					if stub, ok := pick(t.f, t.sym); ok && df.Doc == "" {
						df.Doc = stub.Doc
					}
					return df, true
				}
			}
		}
	}
	if df, ok := pick(t.f, t.sym); ok {
		return df, true
	}
	for _, d := range t.f.defs.of(t.sym) {
		return t.f.S.Defs[d], true
	}
	return navindex.Def{}, false
}

// starredStub finds the typeshed module and qualified name of a dotted
// name the link left unresolved ("os.path.join"): the longest loaded
// stub module the name starts with, defining the rest itself or through
// a module it star-imports, last first (os.path's names are posixpath's:
// it star-imports ntpath, then posixpath), one level deep. It never
// loads: "" when the stubs do not define it.
func (x *Index) starredStub(name string) (string, string) {
	var f *File
	module, qual := name, ""
	for f == nil {
		i := strings.LastIndexByte(module, '.')
		if i < 0 {
			return "", ""
		}
		module, qual = name[:i], name[i+1:]
		f = x.stubs.Loaded(module)
	}
	if _, ok := f.qual(qual); ok {
		return module, qual
	}
	for i := len(f.S.Stars) - 1; i >= 0; i-- { // the last binding wins, as in the linker's starTarget
		st := f.S.Stars[i]
		m, ok := relativeModule(f, st.Level, st.Module)
		if !ok {
			continue
		}
		if g := x.stubs.Loaded(m); g != nil {
			if _, ok := g.qual(qual); ok {
				return m, qual
			}
		}
	}
	return "", ""
}
