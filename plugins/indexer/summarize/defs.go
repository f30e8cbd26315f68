package summarize

import (
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pysem"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// paramQual gives a parameter of a reachable function a qualified name
// ("f(a", "C.m(a") so keyword arguments in other files can refer to it.
func paramQual(sc *pysem.Scope, name string) string {
	if sc.Kind != pysem.ScopeFunction || sc.Owner == nil {
		return ""
	}
	bs := sc.Bindings[name]
	if len(bs) == 0 || bs[0].Kind != pysem.BindParameter {
		return ""
	}
	p, ok := qualPrefix(sc.Owner.Scope)
	if !ok {
		return ""
	}
	if defs := sc.Owner.Scope.Bindings[sc.Owner.Name]; defs[len(defs)-1] != sc.Owner {
		return "" // a property's setter, an overload: calls reach the last def
	}
	return p + sc.Owner.Name + "(" + name
}

func (b *builder) defs() {
	for _, bd := range b.m.Bindings {
		switch bd.Kind {
		case pysem.BindDel, pysem.BindAugAssign:
			continue
		}
		if bd.NameNode.IsNull() {
			continue
		}
		id := b.localSym(bd.Scope, bd.Name)
		d := navindex.Def{Sym: id, Name: b.span(bd.NameNode.StartByte(), bd.NameNode.EndByte()), Returns: -1, Body: -1, Import: bd.Import != nil}
		if bd.Body != nil {
			d.Body = int32(bd.Body.Index)
		}
		switch bd.Kind {
		case pysem.BindFunction:
			d.Kind = navindex.KindFunction
			if bd.Site != nil && bd.Site.Kind == pysem.ScopeClass {
				d.Kind = navindex.KindMethod
			}
			if bd.PropertyRole != pysem.NotProperty {
				d.Kind = navindex.KindProperty
			}
			if !bd.Annotation.IsNull() {
				d.Returns = b.instance(bd.Annotation)
			}
			d.Sig = b.funcSig(bd)
			if d.Kind == navindex.KindProperty {
				d.Sig = bd.Name
				if !bd.Annotation.IsNull() {
					d.Sig += ": " + oneLine(bd.Annotation.Text())
				}
			}
			d.Doc = Markdown(bd.Docstring)
		case pysem.BindClass:
			d.Kind = navindex.KindClass
			for _, base := range bd.Bases {
				d.Bases = append(d.Bases, b.valueExpr(base))
			}
			d.Sig = "class " + bd.Name
			var parts []string
			for _, base := range bd.Bases {
				parts = append(parts, oneLine(base.Text()))
			}
			for _, kw := range bd.Keywords {
				parts = append(parts, oneLine(kw.Text()))
			}
			if len(parts) > 0 {
				d.Sig += "(" + strings.Join(parts, ", ") + ")"
			}
			d.Doc = Markdown(bd.Docstring)
		case pysem.BindParameter:
			d.Kind = navindex.KindParameter
			d.Sig = bd.Name
			if !bd.Annotation.IsNull() {
				d.Sig += ": " + oneLine(bd.Annotation.Text())
			}
		case pysem.BindImport:
			d.Kind = navindex.KindModule
			d.Sig = bd.Import.Module
		default:
			d.Kind = navindex.KindVariable
			d.Sig = bd.Name
			if !bd.Annotation.IsNull() {
				d.Sig += ": " + oneLine(bd.Annotation.Text())
			} else if !bd.Unpacked {
				if t := literalType(bd.Value); t != "" {
					d.Sig += ": " + t
				}
			}
			d.Doc = Markdown(bd.Docstring)
		}
		b.s.Defs = append(b.s.Defs, d)
	}
}

// funcSig is "def name(params) -> ret" with whitespace and comments of
// the parameter list folded onto one line.
func (b *builder) funcSig(bd *pysem.Binding) string {
	n := bd.DefNode
	var sb strings.Builder
	if bd.Async {
		sb.WriteString("async ")
	}
	sb.WriteString("def ")
	sb.WriteString(bd.Name)
	if tp := n.ChildByField("type_parameters"); !tp.IsNull() {
		sb.WriteString(oneLine(tp.Text()))
	}
	if p := n.ChildByField("parameters"); !p.IsNull() {
		sb.WriteString(oneLine(p.Text()))
	} else {
		sb.WriteString("()")
	}
	if !bd.Annotation.IsNull() {
		sb.WriteString(" -> ")
		sb.WriteString(oneLine(bd.Annotation.Text()))
	}
	return sb.String()
}

// oneLine folds source text onto one line: comments dropped, runs of
// whitespace made one space, no space just inside brackets, no trailing
// comma before a closing bracket.
func oneLine(src []byte) string {
	var sb strings.Builder
	inStr := byte(0)
	space := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr != 0 {
			sb.WriteByte(c)
			if c == '\\' && i+1 < len(src) {
				i++
				sb.WriteByte(src[i])
			} else if c == inStr {
				inStr = 0
			}
			continue
		}
		switch c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			space = true
			continue
		case ' ', '\t', '\n', '\r', '\\':
			space = true
			continue
		case '"', '\'':
			inStr = c
		}
		if space {
			out := sb.String()
			last := byte(0)
			if len(out) > 0 {
				last = out[len(out)-1]
			}
			if last != 0 && last != '(' && last != '[' && last != '{' && c != ')' && c != ']' && c != '}' && c != ',' && c != ':' {
				sb.WriteByte(' ')
			}
			space = false
		}
		if (c == ')' || c == ']' || c == '}') && strings.HasSuffix(sb.String(), ",") {
			s := sb.String()
			sb.Reset()
			sb.WriteString(s[:len(s)-1])
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// literalType is the type pyright would infer for a simple value.
func literalType(n tree.Node) string {
	if n.IsNull() {
		return ""
	}
	switch n.Kind() {
	case "integer":
		return "int"
	case "float":
		return "float"
	case "string", "concatenated_string":
		t := string(n.Text())
		if strings.HasPrefix(strings.ToLower(t), "b") || strings.HasPrefix(strings.ToLower(t), "rb") || strings.HasPrefix(strings.ToLower(t), "br") {
			return "bytes"
		}
		return "str"
	case "true", "false":
		return "bool"
	case "none":
		return "None"
	case "list", "list_comprehension":
		return "list"
	case "dictionary", "dictionary_comprehension":
		return "dict"
	case "set", "set_comprehension":
		return "set"
	case "tuple":
		return "tuple"
	case "call":
		f := n.ChildByField("function")
		if f.Kind() == "identifier" || f.Kind() == "attribute" {
			name := string(f.Text())
			last := lastSegment(name)
			if last != "" && last[0] >= 'A' && last[0] <= 'Z' {
				return name
			}
		}
	}
	return ""
}

func (b *builder) addOcc(sp navindex.Span, sym int32, flags uint8, scope int32) {
	if sym < 0 {
		return
	}
	k := [2]int32{sp.Line, sp.Col}
	if b.occAt[k] {
		return
	}
	b.occAt[k] = true
	b.s.Occs = append(b.s.Occs, navindex.Occ{Span: sp, Sym: sym, Flags: flags, Scope: scope})
}

func (b *builder) occurrences() {
	m := b.m
	for _, bd := range m.Bindings {
		if bd.NameNode.IsNull() {
			continue
		}
		var fl uint8
		switch bd.Kind {
		case pysem.BindDel, pysem.BindAugAssign:
		default:
			fl = navindex.OccDef
		}
		if bd.Import != nil {
			fl |= navindex.OccImport
		}
		b.addOcc(b.span(bd.NameNode.StartByte(), bd.NameNode.EndByte()), b.localSym(bd.Scope, bd.Name), fl, int32(bd.Site.Index))
	}
	for _, im := range m.Imports {
		if im.Future {
			continue
		}
		site := int32(im.Scope.Index)
		for k, id := range im.ModuleNodes {
			if im.Name == "" && !im.Star && k == 0 && im.AsName == "" {
				continue // `import a.b`: a is the binding
			}
			b.addOcc(b.span(id.StartByte(), id.EndByte()), b.importSym(im.Level, im.Prefix(k), ""), navindex.OccImport, site)
		}
		if im.Name != "" && im.AsName != "" && !im.NameNode.IsNull() {
			b.addOcc(b.span(im.NameNode.StartByte(), im.NameNode.EndByte()), b.importSym(im.Level, im.Module, im.Name), navindex.OccImport, site)
		}
	}
	for _, r := range m.Refs {
		sym := b.refSym(r)
		var fl uint8
		switch {
		case r.Ctx.Has(pysem.CtxAllEntry):
			fl = navindex.OccAll
		case r.Ctx.Has(pysem.CtxStringAnnotation):
			fl = navindex.OccString
		case r.Ctx&(pysem.CtxGlobal|pysem.CtxNonlocal) != 0:
			fl = navindex.OccDecl
		}
		b.addOcc(b.span(r.Start, r.End), sym, fl, int32(r.Scope.Index))
	}
	var strChain map[int]int32 // end offset of an attribute inside a string -> its value expr
	for _, a := range m.Attrs {
		var recv int32 = -1
		if !a.Object.IsNull() {
			recv = b.valueExpr(a.Object)
		} else {
			if strChain == nil {
				strChain = map[int]int32{}
			}
			if prev, ok := strChain[a.Start-1]; ok {
				recv = prev
			} else if a.ObjectRef != nil {
				recv = b.expr(navindex.ExprSym, b.refSym(a.ObjectRef), "")
			}
			strChain[a.End] = b.expr(navindex.ExprAttr, recv, a.Name)
		}
		var fl uint8
		if a.Ctx&(pysem.CtxStore|pysem.CtxAugAssign) != 0 {
			fl = navindex.OccStore
			if ob := a.ObjectBinding; ob != nil && ob.Kind == pysem.BindParameter && ob.Scope != nil && ob.Scope.Self == ob && ob.Scope.Method == pysem.InstanceMethod && a.Ctx.Has(pysem.CtxStore) {
				fl |= navindex.OccDef
			}
		}
		if a.Object.IsNull() {
			fl |= navindex.OccString
		}
		scope := int32(0)
		if a.Scope != nil {
			scope = int32(a.Scope.Index)
		}
		b.addOcc(b.span(a.Start, a.End), b.attrSym(recv, a.Name), fl, scope)
	}
	if m.Tree != nil {
		b.keywordArgs(m.Tree.Root())
	}
	sortOccs(b.s.Occs)
}

// keywordArgs adds an occurrence for each keyword argument of a call: it
// names a parameter of whatever the callee turns out to be.
func (b *builder) keywordArgs(root tree.Node) {
	root.Walk(func(n tree.Node) bool {
		if n.Kind() != "keyword_argument" {
			return true
		}
		al := n.Parent()
		if al.IsNull() || al.Kind() != "argument_list" || al.Parent().Kind() != "call" {
			return true
		}
		name := n.ChildByField("name")
		if name.IsNull() || name.Kind() != "identifier" {
			return true
		}
		callee := b.valueExpr(al.Parent().ChildByField("function"))
		if callee < 0 {
			return true
		}
		k := attrKey{callee, string(name.Text())}
		id, ok := b.kwargs[k]
		if !ok {
			id = b.add(navindex.Sym{Kind: navindex.SymKeyword, Name: k.name, Recv: callee, Scope: -1, Class: -1, Target: -1, Value: -1})
			b.kwargs[k] = id
		}
		b.addOcc(b.span(name.StartByte(), name.EndByte()), id, 0, int32(b.m.ScopeAt(name.StartByte()).Index))
		return true
	})
}

func sortOccs(os []navindex.Occ) {
	slicesSortFunc(os)
}
