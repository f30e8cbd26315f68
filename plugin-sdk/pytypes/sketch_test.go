package pytypes

import (
	"fmt"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/navindex"
)

// sketchSummary builds a v5 summary from a small, line-oriented subset
// of Python, so evaluator tests read as Python until the indexer emits
// v5 summaries itself: classes, defs (decorators, parameters, returns,
// yields, raises), assignments (annotated, tuple targets, self.x),
// for/with targets, imports, and expressions (names, attributes, calls,
// subscripts, literals, displays, operators, await, conditional). Each
// statement is one line. It trusts its input; tests only.
func sketchSummary(src, mod string, p *fakeProgram) *navindex.Summary {
	sk := &sketch{s: &navindex.Summary{}, p: p, mod: mod, bound: map[scopeName]int32{}}
	lines := strings.Split(src, "\n")
	for pass := 0; pass < 2; pass++ {
		sk.pass = pass
		sk.s.Scopes = sk.s.Scopes[:0]
		sk.run(lines)
	}
	return sk.s
}

type scopeName struct {
	scope int32
	name  string
}

type block struct {
	indent int
	scope  int32
	def    int32 // the def owning the scope (-1 module)
	class  bool
	fn     bool  // the block of a def itself (not an if inside it)
	self   int32 // a method's first parameter symbol
	owner  int32 // a method's class symbol
	last   string
	// unimplemented: every statement so far is simple and every raise
	// one of NotImplementedError (pyright's idiom of a method to write)
	unimplemented bool
	stmts         int
}

type sketch struct {
	s     *navindex.Summary
	p     *fakeProgram
	mod   string
	pass  int
	bound map[scopeName]int32
	stack []block
	decos []string

	toks []string
	pos  int
}

func (sk *sketch) run(lines []string) {
	sk.stack = []block{{indent: -1, scope: sk.newScope(navindex.ScopeModule, -1), def: -1, self: -1, owner: -1}}
	for _, raw := range lines {
		line := strings.TrimRight(raw, " ")
		text := strings.TrimLeft(line, " ")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		indent := len(line) - len(text)
		for len(sk.stack) > 1 && indent <= sk.stack[len(sk.stack)-1].indent {
			sk.closeBlock()
		}
		sk.statement(indent, text)
	}
	for len(sk.stack) > 1 {
		sk.closeBlock()
	}
}

func (sk *sketch) top() *block { return &sk.stack[len(sk.stack)-1] }

func (sk *sketch) newScope(kind navindex.ScopeKind, parent int32) int32 {
	sk.s.Scopes = append(sk.s.Scopes, navindex.Scope{Kind: kind, Parent: parent})
	return int32(len(sk.s.Scopes) - 1)
}

// closeBlock sets a def's return flags from how its body ended.
func (sk *sketch) closeBlock() {
	b := sk.top()
	if sk.pass == 1 && b.fn {
		d := &sk.s.Defs[b.def]
		switch {
		case strings.HasPrefix(b.last, "raise") && len(d.ReturnValues) == 0 && d.Flags&navindex.DefReturnsNone == 0:
			d.Flags |= navindex.DefNeverReturns
			if b.unimplemented {
				d.Flags |= navindex.DefRaisesNotImplemented
			}
		case !strings.HasPrefix(b.last, "return") && !strings.HasPrefix(b.last, "raise"):
			d.Flags |= navindex.DefReturnsNone
		}
	}
	sk.stack = sk.stack[:len(sk.stack)-1]
}

// sym is the symbol of name bound in scope (made in pass 0).
func (sk *sketch) local(scope int32, name string) int32 {
	k := scopeName{scope, name}
	if id, ok := sk.bound[k]; ok {
		return id
	}
	qual := ""
	if scope == 0 {
		qual = name
	}
	id := sk.addSym(navindex.Sym{Kind: navindex.SymLocal, Name: name, Qual: qual, Scope: scope})
	sk.bound[k] = id
	return id
}

func (sk *sketch) addSym(sy navindex.Sym) int32 {
	if sy.Kind != navindex.SymLocal && sy.Kind != navindex.SymMember {
		sy.Scope = -1
	}
	if sy.Kind != navindex.SymMember {
		sy.Class = -1
	}
	if sy.Kind != navindex.SymAttr && sy.Kind != navindex.SymKeyword {
		sy.Recv = -1
	}
	if sy.Kind != navindex.SymLocal || sy.Target == 0 {
		sy.Target = -1
	}
	sy.Value = -1
	sy.SymModule = sy.ModuleOf()
	sk.s.Syms = append(sk.s.Syms, sy)
	return int32(len(sk.s.Syms) - 1)
}

// lookup resolves a name read in the current block: enclosing scopes
// (class scopes only when current), then builtins.
func (sk *sketch) lookup(name string) int32 {
	for i := len(sk.stack) - 1; i >= 0; i-- {
		b := sk.stack[i]
		if b.class && i != len(sk.stack)-1 {
			continue
		}
		if id, ok := sk.bound[scopeName{b.scope, name}]; ok {
			return id
		}
	}
	kind := navindex.SymBuiltin
	if sk.mod == "builtins" {
		kind = navindex.SymUnresolved
	}
	for i, sy := range sk.s.Syms {
		if sy.Kind == kind && sy.Name == name {
			return int32(i)
		}
	}
	return sk.addSym(navindex.Sym{Kind: kind, Name: name})
}

func (sk *sketch) addDef(d navindex.Def) int32 {
	if sk.pass == 0 {
		return -1
	}
	sk.s.Defs = append(sk.s.Defs, d)
	return int32(len(sk.s.Defs) - 1)
}

func newDef(sym int32, kind navindex.DefKind) navindex.Def {
	return navindex.Def{Sym: sym, Kind: kind, Returns: -1, Body: -1, Annot: -1, Value: -1, DefLists: new(navindex.DefLists)}
}

func (sk *sketch) statement(indent int, text string) {
	b := sk.top()
	b.last = text
	if b.fn {
		ok := !strings.HasSuffix(text, ":") && (!strings.HasPrefix(text, "raise") ||
			strings.HasPrefix(text, "raise NotImplementedError") && !strings.Contains(text, " from "))
		b.unimplemented = ok && (b.stmts == 0 || b.unimplemented)
		b.stmts++
	}
	switch {
	case strings.HasPrefix(text, "@"):
		sk.decos = append(sk.decos, text[1:])
	case strings.HasPrefix(text, "class "):
		sk.classStmt(indent, text)
	case strings.HasPrefix(text, "def "), strings.HasPrefix(text, "async def "):
		sk.defStmt(indent, text)
	case strings.HasPrefix(text, "return"):
		sk.returnStmt(strings.TrimSpace(strings.TrimPrefix(text, "return")))
	case strings.HasPrefix(text, "yield"):
		sk.funcDef(func(d *navindex.Def) { d.Flags |= navindex.DefGenerator })
	case strings.HasPrefix(text, "import "), strings.HasPrefix(text, "from "):
		sk.importStmt(text)
	case strings.HasPrefix(text, "for "):
		// for TARGET in EXPR:
		body := strings.TrimSuffix(strings.TrimPrefix(text, "for "), ":")
		i := strings.Index(body, " in ")
		async := ""
		sk.bindTarget(body[:i], func() int32 { return sk.exprOf(navindex.ExprIter, sk.parse(body[i+4:]), async) }, -1, 0)
		sk.openBlock(indent)
	case strings.HasPrefix(text, "with "):
		body := strings.TrimSuffix(strings.TrimPrefix(text, "with "), ":")
		i := strings.Index(body, " as ")
		sk.bindTarget(body[i+4:], func() int32 { return sk.exprOf(navindex.ExprEnter, sk.parse(body[:i]), "") }, -1, 0)
		sk.openBlock(indent)
	case strings.HasSuffix(text, ":"):
		sk.openBlock(indent) // if/else/try: same scope
	case strings.HasPrefix(text, "raise"), text == "pass", text == "...":
	default:
		sk.assignStmt(text)
	}
}

func (sk *sketch) openBlock(indent int) {
	b := *sk.top()
	b.indent, b.fn = indent, false
	sk.stack = append(sk.stack, b)
}

func (sk *sketch) funcDef(f func(d *navindex.Def)) {
	for i := len(sk.stack) - 1; i >= 0; i-- {
		if b := sk.stack[i]; b.def >= 0 && !b.class {
			if sk.pass == 1 {
				f(&sk.s.Defs[b.def])
			}
			return
		}
	}
}

func (sk *sketch) returnStmt(value string) {
	if value == "" {
		sk.funcDef(func(d *navindex.Def) { d.Flags |= navindex.DefReturnsNone })
		return
	}
	if sk.pass == 0 {
		return
	}
	v := sk.parse(value)
	sk.funcDef(func(d *navindex.Def) { d.ReturnValues = append(d.ReturnValues, v) })
}

func (sk *sketch) takeDecorators() (flags navindex.DefFlags, kind navindex.DefKind, decos []int32) {
	kind = 255
	for _, dtext := range sk.decos {
		switch dtext {
		case "overload":
			flags |= navindex.DefOverload
		case "classmethod":
			flags |= navindex.DefClassMethod
		case "staticmethod":
			flags |= navindex.DefStaticMethod
		case "property":
			kind = navindex.KindProperty
		case "final":
			flags |= navindex.DefFinal
		case "abstractmethod":
			flags |= navindex.DefAbstract
		default:
			if strings.HasSuffix(dtext, ".setter") {
				kind = navindex.KindProperty
				continue
			}
			if sk.pass == 1 {
				decos = append(decos, sk.parse(dtext))
			}
		}
	}
	sk.decos = nil
	return
}

func (sk *sketch) classStmt(indent int, text string) {
	head := strings.TrimPrefix(text, "class ")
	if i := topIndex(head, ":"); i >= 0 {
		head = strings.TrimSpace(head[:i])
	}
	name, bases := head, ""
	if i := strings.Index(head, "("); i >= 0 {
		name, bases = head[:i], head[i+1:len(head)-1]
	}
	flags, _, _ := sk.takeDecorators()
	outer := sk.top()
	sym := sk.local(outer.scope, name)
	d := newDef(sym, navindex.KindClass)
	d.Flags = flags
	if sk.pass == 1 && bases != "" {
		for _, b := range splitTop(bases) {
			d.Bases = append(d.Bases, sk.parse(b))
		}
	}
	scope := sk.newScope(navindex.ScopeClass, outer.scope)
	d.Body = scope
	di := sk.addDef(d)
	sk.stack = append(sk.stack, block{indent: indent, scope: scope, def: di, class: true, self: -1, owner: sym})
}

func (sk *sketch) defStmt(indent int, text string) {
	async := strings.HasPrefix(text, "async ")
	text = strings.TrimPrefix(text, "async ")
	head := strings.TrimPrefix(text, "def ")
	open := strings.Index(head, "(")
	name := head[:open]
	close := matchParen(head, open)
	params := head[open+1 : close]
	rest := strings.TrimSpace(head[close+1:])
	inline := ""
	if i := strings.Index(rest, ":"); i >= 0 {
		inline = strings.TrimSpace(rest[i+1:])
		rest = strings.TrimSpace(rest[:i])
	}
	flags, kind, decos := sk.takeDecorators()
	outer := *sk.top()
	if kind == 255 {
		kind = navindex.KindFunction
		if outer.class {
			kind = navindex.KindMethod
		}
	}
	if async {
		flags |= navindex.DefAsync
	}
	sym := sk.local(outer.scope, name)
	d := newDef(sym, kind)
	d.Flags, d.Decorators = flags, decos
	if sk.pass == 1 && strings.HasPrefix(rest, "->") {
		d.Annot = sk.parse(strings.TrimSpace(rest[2:]))
	}
	scope := sk.newScope(navindex.ScopeFunction, outer.scope)
	d.Body = scope
	di := sk.addDef(d)
	blk := block{indent: indent, scope: scope, def: di, fn: true, self: -1, owner: -1}
	sk.stack = append(sk.stack, blk)
	sk.parameters(params, scope, di, outer)
	if inline != "" {
		sk.statement(indent+1, inline)
		sk.closeBlock()
	}
}

func (sk *sketch) parameters(text string, scope, di int32, outer block) {
	kind := navindex.ParamNormal
	var ps []navindex.Param
	for i, p := range splitTop(text) {
		p = strings.TrimSpace(p)
		switch {
		case p == "/":
			for j := range ps {
				ps[j].Kind = navindex.ParamPosOnly
			}
			continue
		case p == "*":
			kind = navindex.ParamKwOnly
			continue
		}
		pk := kind
		if strings.HasPrefix(p, "**") {
			pk, p = navindex.ParamVarKwargs, p[2:]
		} else if strings.HasPrefix(p, "*") {
			pk, p, kind = navindex.ParamVarArgs, p[1:], navindex.ParamKwOnly
		}
		param := navindex.Param{Kind: pk, Annot: -1, Default: -1}
		if j := strings.Index(p, "="); j >= 0 && !strings.Contains(p[:j], "[") {
			param.HasDefault, param.DefaultText = true, strings.TrimSpace(p[j+1:])
			if sk.pass == 1 {
				param.Default = sk.parse(param.DefaultText)
			}
			p = strings.TrimSpace(p[:j])
		}
		if j := strings.Index(p, ":"); j >= 0 {
			if sk.pass == 1 {
				param.Annot = sk.parse(strings.TrimSpace(p[j+1:]))
			}
			p = strings.TrimSpace(p[:j])
		}
		param.Name = p
		sym := sk.local(scope, p)
		if i == 0 && outer.class {
			sk.top().self, sk.top().owner = sym, outer.owner
		}
		pd := newDef(sym, navindex.KindParameter)
		pd.Annot = param.Annot
		sk.addDef(pd)
		ps = append(ps, param)
	}
	if sk.pass == 1 {
		sk.s.Defs[di].Params = ps
	}
}

func (sk *sketch) importStmt(text string) {
	scope := sk.top().scope
	if strings.HasPrefix(text, "import ") {
		for _, part := range strings.Split(text[7:], ",") {
			part = strings.TrimSpace(part)
			modName, as := part, ""
			if i := strings.Index(part, " as "); i >= 0 {
				modName, as = part[:i], part[i+4:]
			}
			bindName, target := as, modName
			if as == "" {
				bindName = strings.Split(modName, ".")[0]
				target = bindName
			}
			sk.importBinding(scope, bindName, target, "")
		}
		return
	}
	i := strings.Index(text, " import ")
	modName := strings.TrimSpace(text[5:i])
	for _, part := range strings.Split(strings.Trim(strings.TrimSpace(text[i+8:]), "()"), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, as := part, part
		if j := strings.Index(part, " as "); j >= 0 {
			name, as = part[:j], part[j+4:]
		}
		sk.importBinding(scope, as, modName, name)
	}
}

func (sk *sketch) importBinding(scope int32, bindName, modName, name string) {
	sym := sk.local(scope, bindName)
	if sk.pass == 0 {
		return
	}
	imp := sk.addSym(navindex.Sym{Kind: navindex.SymImport, SymModule: &navindex.SymModule{Module: modName}, Name: name})
	sk.s.Syms[sym].Target = imp
	d := newDef(sym, navindex.KindModule)
	d.Import = true
	sk.addDef(d)
}

func (sk *sketch) assignStmt(text string) {
	eq := topIndex(text, "=")
	target, value := text, ""
	if eq >= 0 {
		target, value = strings.TrimSpace(text[:eq]), strings.TrimSpace(text[eq+1:])
	}
	annot := ""
	if c := topIndex(target, ":"); c >= 0 {
		target, annot = strings.TrimSpace(target[:c]), strings.TrimSpace(target[c+1:])
	}
	if eq < 0 && annot == "" {
		if sk.pass == 1 {
			sk.parse(text) // an expression statement
		}
		return
	}
	var a int32 = -1
	if annot != "" && sk.pass == 1 {
		a = sk.parse(annot)
	}
	valueOf := func() int32 {
		if value == "" {
			return -1
		}
		return sk.parse(value)
	}
	var flags navindex.DefFlags
	if annot == "TypeAlias" {
		flags, a = navindex.DefTypeAlias, -1
	}
	if strings.HasPrefix(annot, "Final") {
		flags |= navindex.DefFinal
	}
	sk.bindTarget(target, valueOf, a, flags)
}

// bindTarget binds target (a name, self.x, or a tuple of names) to the
// value value() makes.
func (sk *sketch) bindTarget(target string, value func() int32, annot int32, flags navindex.DefFlags) {
	target = strings.TrimSpace(target)
	parts := splitTop(strings.Trim(target, "()"))
	if len(parts) > 1 {
		var whole int32 = -1
		if sk.pass == 1 {
			whole = value()
		}
		for i, p := range parts {
			p = strings.TrimSpace(p)
			star := ""
			if strings.HasPrefix(p, "*") {
				star, p = "*", p[1:]
			}
			idx := int32(i)
			sk.bindTarget(p, func() int32 {
				return sk.add(navindex.Expr{Op: navindex.ExprUnpack, A: whole, B: idx, Name: star, Text: fmt.Sprint(len(parts))})
			}, -1, 0)
		}
		return
	}
	b := *sk.top()
	var sym int32
	if strings.HasPrefix(target, "self.") && b.self >= 0 {
		name := target[5:]
		k := scopeName{-100 - b.owner, name}
		id, ok := sk.bound[k]
		if !ok {
			id = sk.addSym(navindex.Sym{Kind: navindex.SymMember, Name: name, Class: b.owner})
			sk.s.Syms[id].Class = b.owner
			sk.bound[k] = id
		}
		sym = id
	} else {
		sym = sk.local(b.scope, target)
	}
	if sk.pass == 0 {
		return
	}
	d := newDef(sym, navindex.KindVariable)
	d.Annot, d.Value, d.Flags = annot, value(), flags
	if b.class {
		d.Flags |= navindex.DefClassVar
	}
	sk.addDef(d)
}

// Expressions.

func (sk *sketch) add(x navindex.Expr) int32 {
	if x.B == 0 && x.Op != navindex.ExprUnpack {
		x.B = -1
	}
	x.ExprLists = x.Lists()
	sk.s.Exprs = append(sk.s.Exprs, x)
	return int32(len(sk.s.Exprs) - 1)
}

func (sk *sketch) exprOf(op navindex.ExprOp, a int32, name string) int32 {
	return sk.add(navindex.Expr{Op: op, A: a, Name: name})
}

func (sk *sketch) parse(text string) int32 {
	sk.toks, sk.pos = tokenize(text), 0
	e := sk.ifExpr()
	return e
}

func (sk *sketch) peek() string {
	if sk.pos < len(sk.toks) {
		return sk.toks[sk.pos]
	}
	return ""
}

func (sk *sketch) next() string {
	t := sk.peek()
	sk.pos++
	return t
}

func (sk *sketch) accept(t string) bool {
	if sk.peek() == t {
		sk.pos++
		return true
	}
	return false
}

func (sk *sketch) ifExpr() int32 {
	if sk.accept("lambda") {
		for sk.peek() != ":" && sk.peek() != "" {
			sk.next()
		}
		sk.next()
		return sk.exprOf(navindex.ExprLambda, sk.ifExpr(), "")
	}
	a := sk.binary(0)
	if sk.accept("if") {
		sk.binary(0)
		sk.accept("else")
		b := sk.ifExpr()
		return sk.add(navindex.Expr{Op: navindex.ExprIf, A: a, B: b})
	}
	return a
}

var binaryLevels = [][]string{{"or"}, {"and"}, {"not"}, {"==", "!=", "<", ">", "<=", ">=", "in", "not in", "is", "is not"}, {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (sk *sketch) binary(level int) int32 {
	if level == len(binaryLevels) {
		return sk.unary()
	}
	if binaryLevels[level][0] == "not" {
		if sk.accept("not") {
			return sk.add(navindex.Expr{Op: navindex.ExprOper, Name: "not", A: sk.binary(level)})
		}
		return sk.binary(level + 1)
	}
	a := sk.binary(level + 1)
	for {
		op := sk.peek()
		if op == "not" && sk.pos+1 < len(sk.toks) && sk.toks[sk.pos+1] == "in" {
			sk.pos++
			op = "not in"
		} else if op == "is" && sk.pos+1 < len(sk.toks) && sk.toks[sk.pos+1] == "not" {
			sk.pos++
			op = "is not"
		}
		found := false
		for _, o := range binaryLevels[level] {
			if o == op {
				found = true
			}
		}
		if !found {
			return a
		}
		sk.next()
		b := sk.binary(level + 1)
		a = sk.add(navindex.Expr{Op: navindex.ExprOper, Name: op, A: a, B: b})
	}
}

func (sk *sketch) unary() int32 {
	switch sk.peek() {
	case "-", "+", "~":
		op := sk.next()
		return sk.add(navindex.Expr{Op: navindex.ExprOper, Name: op, A: sk.unary()})
	case "await":
		sk.next()
		return sk.exprOf(navindex.ExprAwait, sk.unary(), "")
	}
	a := sk.primary()
	if sk.accept("**") {
		b := sk.unary()
		return sk.add(navindex.Expr{Op: navindex.ExprOper, Name: "**", A: a, B: b})
	}
	return a
}

func (sk *sketch) primary() int32 {
	a := sk.atom()
	for {
		switch {
		case sk.accept("."):
			name := sk.next()
			if sk.pass == 1 {
				a = sk.add(navindex.Expr{Op: navindex.ExprAttr, A: a, Name: name})
			}
		case sk.accept("("):
			var args []int32
			var keys []string
			for !sk.accept(")") {
				key := ""
				if sk.peek() == "*" || sk.peek() == "**" {
					key = sk.next()
				} else if sk.pos+1 < len(sk.toks) && sk.toks[sk.pos+1] == "=" {
					key = sk.next()
					sk.next()
				}
				args = append(args, sk.ifExpr())
				if key != "" || len(keys) > 0 {
					keys = append(keys, key)
				}
				sk.accept(",")
			}
			if a >= 0 && a < int32(len(sk.s.Exprs)) && sk.s.Exprs[a].Op == navindex.ExprSym && sk.s.Syms[sk.s.Exprs[a].A].Name == "super" && len(args) == 0 {
				a = sk.add(navindex.Expr{Op: navindex.ExprSuper, A: sk.enclosingClass()})
				continue
			}
			a = sk.add(navindex.Expr{Op: navindex.ExprCall, A: a, ExprLists: &navindex.ExprLists{Args: args, Keys: keys}})
		case sk.accept("["):
			var args []int32
			for !sk.accept("]") {
				args = append(args, sk.ifExpr())
				sk.accept(",")
			}
			a = sk.add(navindex.Expr{Op: navindex.ExprSubscript, A: a, ExprLists: &navindex.ExprLists{Args: args}})
		default:
			return a
		}
	}
}

func (sk *sketch) enclosingClass() int32 {
	for i := len(sk.stack) - 1; i >= 0; i-- {
		if sk.stack[i].owner >= 0 {
			return sk.stack[i].owner
		}
	}
	return -1
}

func (sk *sketch) atom() int32 {
	t := sk.next()
	switch {
	case t == "(":
		var elems []int32
		tuple := false
		for !sk.accept(")") {
			elems = append(elems, sk.ifExpr())
			if sk.accept(",") {
				tuple = true
			}
		}
		if len(elems) == 1 && !tuple {
			return elems[0]
		}
		return sk.add(navindex.Expr{Op: navindex.ExprDisplay, Name: "tuple", ExprLists: &navindex.ExprLists{Args: elems}})
	case t == "[":
		return sk.display("list", "]")
	case t == "{":
		return sk.display("set", "}")
	case t == "None", t == "True", t == "False", t == "...":
		switch t {
		case "None":
			return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "None"})
		case "...":
			return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "ellipsis"})
		}
		return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "bool", Text: t})
	case t != "" && (t[0] >= '0' && t[0] <= '9'):
		if strings.ContainsAny(t, ".eE") {
			return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "float"})
		}
		return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "int", Text: t})
	case strings.HasPrefix(t, "b'"), strings.HasPrefix(t, `b"`):
		return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "bytes", Text: `b"` + t[2:len(t)-1] + `"`})
	case strings.HasPrefix(t, "f'"), strings.HasPrefix(t, `f"`):
		return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "str"})
	case t != "" && (t[0] == '\'' || t[0] == '"'):
		return sk.add(navindex.Expr{Op: navindex.ExprLit, Name: "str", Text: "'" + t[1:len(t)-1] + "'"})
	case t == "":
		return -1
	}
	if sk.pass == 0 {
		return -1
	}
	return sk.add(navindex.Expr{Op: navindex.ExprSym, A: sk.lookup(t)})
}

func (sk *sketch) display(kind, close string) int32 {
	var elems []int32
	var keys []string
	for !sk.accept(close) {
		star := ""
		if sk.peek() == "*" || sk.peek() == "**" {
			star = sk.next()
		}
		elems = append(elems, sk.ifExpr())
		keys = append(keys, star)
		if sk.accept(":") {
			kind = "dict"
			elems = append(elems, sk.ifExpr())
			keys = append(keys, "")
		}
		if sk.accept("for") {
			// A comprehension: [elem for target in iterable].
			for sk.peek() != "in" {
				sk.next()
			}
			sk.next()
			sk.ifExpr()
			sk.accept(close)
			if kind == "dict" {
				return sk.add(navindex.Expr{Op: navindex.ExprComp, Name: "dict", A: elems[0], B: elems[1]})
			}
			return sk.add(navindex.Expr{Op: navindex.ExprComp, Name: kind, A: elems[0]})
		}
		sk.accept(",")
	}
	if close == "}" && len(elems) == 0 {
		kind = "dict"
	}
	hasStar := false
	for _, k := range keys {
		if k != "" {
			hasStar = true
		}
	}
	if !hasStar {
		keys = nil
	}
	return sk.add(navindex.Expr{Op: navindex.ExprDisplay, Name: kind, ExprLists: &navindex.ExprLists{Args: elems, Keys: keys}})
}

var multiOps = []string{"**", "//", "==", "!=", "<=", ">=", "<<", ">>", "->", "..."}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '\'' || c == '"' || (c == 'b' || c == 'f') && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"'):
			j := i
			if c == 'b' || c == 'f' {
				j++
			}
			q := s[j]
			k := strings.IndexByte(s[j+1:], q) + j + 1
			out = append(out, s[i:k+1])
			i = k + 1
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || (s[j] == '.' && c >= '0' && c <= '9')) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			op := string(c)
			for _, m := range multiOps {
				if strings.HasPrefix(s[i:], m) {
					op = m
					break
				}
			}
			out = append(out, op)
			i += len(op)
		}
	}
	return out
}

// scanTop calls at for each byte of s outside brackets and strings,
// until it returns true; the index it stopped at, -1 none.
func scanTop(s string, at func(i int) bool) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && at(i):
			return i
		}
	}
	return -1
}

// splitTop splits s at commas outside brackets and strings.
func splitTop(s string) []string {
	var out []string
	start := 0
	scanTop(s, func(i int) bool {
		if s[i] == ',' {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
		return false
	})
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, strings.TrimSpace(s[start:]))
	}
	return out
}

// topIndex is the index of a lone sep ("=" not part of "==", "<=" ...;
// ":" ) outside brackets and strings, -1 none.
func topIndex(s, sep string) int {
	return scanTop(s, func(i int) bool {
		if !strings.HasPrefix(s[i:], sep) {
			return false
		}
		if sep == "=" && (i+1 < len(s) && s[i+1] == '=' || i > 0 && strings.ContainsRune("=!<>", rune(s[i-1]))) {
			return false
		}
		return !(sep == ":" && strings.HasPrefix(s, "lambda"))
	})
}

func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(s) - 1
}
