package navindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

const magic = "PYNX"

// ErrMalformed is wrapped by every decoding error.
var ErrMalformed = errors.New("navindex: malformed summary")

// encoder writes varints into buf, where reserve made room: a record
// reserves its worst case once, so that each byte is written without a
// capacity check. In a wasm guest, where the indexer encodes a summary
// on every save, the branches of an append per value are most of the
// encoding's cost.
type encoder struct {
	buf  []byte // written: buf[:n]
	n    int
	strs strTable
}

// maxVarint is the most bytes a value takes.
const maxVarint = binary.MaxVarintLen64

// reserve makes room for k more values.
func (e *encoder) reserve(k int) {
	if e.n+k*maxVarint > len(e.buf) {
		b := make([]byte, 2*len(e.buf)+k*maxVarint)
		copy(b, e.buf[:e.n])
		e.buf = b
	}
}

func (e *encoder) u(v uint64) {
	b, n := e.buf, e.n
	for v >= 0x80 {
		b[n] = byte(v) | 0x80
		v >>= 7
		n++
	}
	b[n] = byte(v)
	e.n = n + 1
}

func (e *encoder) i(v int32) { e.u(uint64(v)<<1 ^ uint64(int64(v)>>63)) } // zigzag, as binary.AppendVarint

func (e *encoder) b(v bool) {
	if v {
		e.u(1)
	} else {
		e.u(0)
	}
}

func (e *encoder) s(v string) { e.u(uint64(e.strs.id(v))) }

func (e *encoder) span(sp Span) { e.i(sp.Line); e.i(sp.Col); e.i(sp.End - sp.Col) }
func (e *encoder) pos(p Pos)    { e.i(p.Line); e.i(p.Col) }

// strTable numbers the summary's strings in order of first use ("" is
// 0). Its index holds ids by FNV-1a hash (0: empty slot): much cheaper in
// a wasm guest than a Go map, whose string hash emulates wide multiplies.
type strTable struct {
	tab    []string
	hashes []uint32 // by id
	slots  []int32  // power-of-two length
	size   int      // total length of tab's strings
}

// id returns v's id, numbering it if new.
func (t *strTable) id(v string) int32 {
	if v == "" {
		return 0
	}
	h := uint32(2166136261)
	for i := 0; i < len(v); i++ {
		h = (h ^ uint32(v[i])) * 16777619
	}
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		id := t.slots[i]
		if id == 0 {
			id = int32(len(t.tab))
			t.tab = append(t.tab, v)
			t.hashes = append(t.hashes, h)
			t.size += len(v)
			t.slots[i] = id
			if 2*len(t.tab) > len(t.slots) {
				t.grow()
			}
			return id
		}
		if t.hashes[id] == h && t.tab[id] == v {
			return id
		}
	}
}

func (t *strTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := uint32(len(t.slots) - 1)
	for id, h := range t.hashes[1:] {
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(id) + 1
	}
}

// Encode lays s out in the binary format.
func Encode(s *Summary) []byte {
	// Most records take a few bytes: room for that spares regrowing (and
	// copying) the buffer.
	n := len(s.Syms) + len(s.Exprs) + len(s.Defs) + len(s.Occs) + len(s.Scopes)
	e := &encoder{buf: make([]byte, 16*n+64), strs: strTable{tab: []string{""}, hashes: []uint32{0}, slots: make([]int32, 1024)}}
	e.reserve(1)
	e.u(uint64(len(s.Syms)))
	for _, y := range s.Syms {
		e.reserve(11)
		e.u(uint64(y.Kind))
		e.s(y.Name)
		e.s(y.Qual)
		e.i(y.Scope)
		e.i(y.Class)
		e.i(y.Recv)
		m := y.ModuleOf()
		e.s(m.Module)
		e.i(m.Level)
		e.i(y.Target)
		e.b(y.Alias)
		e.i(y.Value)
	}
	e.reserve(1)
	e.u(uint64(len(s.Exprs)))
	for _, x := range s.Exprs {
		l := x.Lists()
		e.reserve(7 + len(l.Args) + len(l.Keys))
		e.u(uint64(x.Op))
		e.i(x.A)
		e.s(x.Name)
		e.i(x.B)
		e.u(uint64(len(l.Args)))
		for _, a := range l.Args {
			e.i(a)
		}
		e.u(uint64(len(l.Keys)))
		for _, k := range l.Keys {
			e.s(k)
		}
		e.s(x.Text)
	}
	e.reserve(1)
	e.u(uint64(len(s.Defs)))
	for _, d := range s.Defs {
		l := d.Lists()
		e.reserve(11 + len(l.Bases))
		e.i(d.Sym)
		e.u(uint64(d.Kind))
		e.span(d.Name)
		e.u(uint64(len(l.Bases)))
		for _, base := range l.Bases {
			e.i(base)
		}
		e.i(d.Returns)
		e.i(d.Body)
		e.s(d.Sig)
		e.s(d.Doc)
		e.b(d.Import)
		e.reserve(7 + 6*len(l.Params) + len(l.ReturnValues) + len(l.YieldValues) + len(l.Decorators))
		e.i(d.Annot)
		e.i(d.Value)
		e.u(uint64(len(l.Params)))
		for _, p := range l.Params {
			e.s(p.Name)
			e.u(uint64(p.Kind))
			e.i(p.Annot)
			e.i(p.Default)
			e.s(p.DefaultText)
			e.b(p.HasDefault)
		}
		e.u(uint64(len(l.ReturnValues)))
		for _, v := range l.ReturnValues {
			e.i(v)
		}
		e.u(uint64(len(l.YieldValues)))
		for _, v := range l.YieldValues {
			e.i(v)
		}
		e.u(uint64(len(l.Decorators)))
		for _, v := range l.Decorators {
			e.i(v)
		}
		e.u(uint64(d.Flags))
		e.reserve(6)
		x := d.Extent
		e.i(x.Line)
		e.i(x.Col)
		e.i(x.EndLine - x.Line) // small deltas
		e.i(x.EndCol)
		e.i(x.BodyLine - x.Line)
		e.i(x.BodyCol)
	}
	e.reserve(1)
	e.u(uint64(len(s.Occs)))
	var prevLine int32
	for _, o := range s.Occs {
		e.reserve(6)
		e.i(o.Line - prevLine) // sorted: small deltas
		prevLine = o.Line
		e.i(o.Col)
		e.i(o.End - o.Col)
		e.i(o.Sym)
		e.u(uint64(o.Flags))
		e.i(o.Scope)
	}
	e.reserve(1)
	e.u(uint64(len(s.Scopes)))
	for _, sc := range s.Scopes {
		e.reserve(4 + len(sc.Bound) + 2*len(sc.Uses))
		e.u(uint64(sc.Kind))
		e.i(sc.Parent)
		e.u(uint64(len(sc.Bound)))
		for _, n := range sc.Bound {
			e.s(n)
		}
		e.u(uint64(len(sc.Uses)))
		for _, u := range sc.Uses {
			e.s(u.Name)
			e.i(u.Scope)
		}
	}
	e.reserve(1)
	e.u(uint64(len(s.Stars)))
	for _, st := range s.Stars {
		e.reserve(2)
		e.s(st.Module)
		e.i(st.Level)
	}
	e.reserve(1)
	e.u(uint64(len(s.Calls)))
	for _, c := range s.Calls {
		e.reserve(7 + 2*len(c.Commas) + len(c.Keys))
		e.i(c.Expr)
		e.pos(c.Open)
		e.pos(c.Close)
		e.u(uint64(len(c.Commas)))
		for _, p := range c.Commas {
			e.pos(p)
		}
		e.u(uint64(len(c.Keys)))
		for _, k := range c.Keys {
			e.s(k)
		}
	}
	e.reserve(1 + len(s.All))
	e.u(uint64(len(s.All)))
	for _, n := range s.All {
		e.s(n)
	}
	e.reserve(4)
	e.b(s.AllKnown)
	e.b(s.AllPartial)
	e.s(s.Doc)
	e.i(s.Lines)
	e.reserve(1)
	e.u(uint64(len(s.Sites)))
	for _, st := range s.Sites {
		e.reserve(8)
		e.u(uint64(st.Kind))
		e.span(st.Span)
		e.i(st.Def)
		e.i(st.Value)
		e.i(st.Arg)
		e.i(st.Sym)
	}
	e.reserve(1)
	e.u(uint64(len(s.Flow)))
	for _, f := range s.Flow {
		e.reserve(4)
		e.u(uint64(f.Kind))
		e.i(f.A)
		e.i(f.B)
		e.i(f.Prev)
	}
	e.reserve(1)
	e.u(uint64(len(s.FlowPreds)))
	for _, p := range s.FlowPreds {
		e.reserve(1)
		e.i(p)
	}
	e.reserve(1)
	e.u(uint64(len(s.Reads)))
	var readLine int32
	for _, r := range s.Reads {
		e.reserve(3)
		e.i(r.Line - readLine) // sorted: small deltas
		readLine = r.Line
		e.i(r.Col)
		e.i(r.Node)
	}

	body, t := e.buf[:e.n], &e.strs
	out := make([]byte, 0, len(body)+t.size+5*len(t.tab)+16)
	out = append(out, magic...)
	out = binary.AppendUvarint(out, Version)
	out = binary.AppendUvarint(out, uint64(len(t.tab)))
	for _, str := range t.tab {
		out = binary.AppendUvarint(out, uint64(len(str)))
		out = append(out, str...)
	}
	return append(out, body...)
}

type decoder struct {
	buf []byte
	tab []string
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrMalformed, what)
	}
}

func (d *decoder) u() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) i() int32 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf)
	if n <= 0 || v < -1<<31 || v > 1<<31-1 {
		d.fail("bad varint")
		return 0
	}
	d.buf = d.buf[n:]
	return int32(v)
}

func (d *decoder) b() bool {
	if d.err != nil {
		return false
	}
	if len(d.buf) == 0 {
		d.fail("truncated")
		return false
	}
	v := d.buf[0]
	d.buf = d.buf[1:]
	return v != 0
}

func (d *decoder) s() string {
	id := d.u()
	if id >= uint64(len(d.tab)) {
		d.fail("bad string id")
		return ""
	}
	return d.tab[id]
}

// n reads a count, bounded by what the remaining bytes could hold.
func (d *decoder) n() int {
	v := d.u()
	if v > uint64(len(d.buf)) {
		d.fail("count exceeds data")
		return 0
	}
	return int(v)
}

// int32s reads a counted list of signed values (nil when empty).
func (d *decoder) int32s() []int32 {
	n := d.n()
	if n == 0 {
		return nil
	}
	v := make([]int32, n)
	for j := range v {
		v[j] = d.i()
	}
	return v
}

func (d *decoder) pos() Pos { return Pos{Line: d.i(), Col: d.i()} }

func (d *decoder) span() Span {
	l, c := d.i(), d.i()
	return Span{Line: l, Col: c, End: c + d.i()}
}

// table reads the string table into one string its entries are slices
// of: one allocation per summary, where one per string cost the kernel,
// which keeps every file's summary decoded, each string's rounding up to
// its size class.
func (d *decoder) table() {
	nt := d.n()
	region, size := d.buf, 0
	for range nt {
		l := d.n()
		if d.err != nil {
			return
		}
		d.buf, size = d.buf[l:], size+l
	}
	var all strings.Builder
	all.Grow(size)
	ends := make([]int, nt)
	for k := range ends {
		l, n := binary.Uvarint(region) // read once above: well formed
		all.Write(region[n : n+int(l)])
		region, ends[k] = region[n+int(l):], all.Len()
	}
	text := all.String()
	d.tab = make([]string, nt)
	for k, end := range ends {
		begin := 0
		if k > 0 {
			begin = ends[k-1]
		}
		d.tab[k] = text[begin:end]
	}
}

// Decode parses a summary written by Encode. Indexes inside the summary
// are checked against the table sizes, so a decoded summary is safe to
// follow.
func Decode(b []byte) (*Summary, error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrMalformed)
	}
	d := &decoder{buf: b[len(magic):]}
	if v := d.u(); v != Version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrMalformed, v, Version)
	}
	d.table()
	s := &Summary{}
	s.Syms = make([]Sym, d.n())
	for k := range s.Syms {
		y := &s.Syms[k]
		y.Kind = SymKind(d.u())
		y.Name, y.Qual = d.s(), d.s()
		y.Scope, y.Class, y.Recv = d.i(), d.i(), d.i()
		y.SymModule = noSymModule
		if m, lv := d.s(), d.i(); m != "" || lv != 0 {
			y.SymModule = &SymModule{Module: m, Level: lv}
		}
		y.Target, y.Alias, y.Value = d.i(), d.b(), d.i()
	}
	s.Exprs = make([]Expr, d.n())
	for k := range s.Exprs {
		x := &s.Exprs[k]
		x.Op, x.A, x.Name, x.B = ExprOp(d.u()), d.i(), d.s(), d.i()
		x.ExprLists = noExprLists
		args := d.int32s()
		var keys []string
		if nk := d.n(); nk > 0 {
			keys = make([]string, nk)
			for j := range keys {
				keys[j] = d.s()
			}
		}
		if len(args) > 0 || len(keys) > 0 {
			x.ExprLists = &ExprLists{Args: args, Keys: keys}
		}
		x.Text = d.s()
	}
	s.Defs = make([]Def, d.n())
	var l DefLists // this def's lists, kept only if it has some
	for k := range s.Defs {
		df := &s.Defs[k]
		l = DefLists{}
		df.Sym, df.Kind, df.Name = d.i(), DefKind(d.u()), d.span()
		if nb := d.n(); nb > 0 {
			l.Bases = make([]int32, nb)
			for j := range l.Bases {
				l.Bases[j] = d.i()
			}
		}
		df.Returns, df.Body, df.Sig, df.Doc, df.Import = d.i(), d.i(), d.s(), d.s(), d.b()
		df.Annot, df.Value = d.i(), d.i()
		if np := d.n(); np > 0 {
			l.Params = make([]Param, np)
			for j := range l.Params {
				p := &l.Params[j]
				p.Name, p.Kind, p.Annot, p.Default, p.DefaultText, p.HasDefault = d.s(), ParamKind(d.u()), d.i(), d.i(), d.s(), d.b()
			}
		}
		l.ReturnValues = d.int32s()
		l.YieldValues = d.int32s()
		l.Decorators = d.int32s()
		df.DefLists = noDefLists
		if !l.empty() {
			df.DefLists = &DefLists{}
			*df.DefLists = l
		}
		df.Flags = DefFlags(d.u())
		x := &df.Extent
		x.Line, x.Col = d.i(), d.i()
		x.EndLine, x.EndCol = x.Line+d.i(), d.i()
		x.BodyLine, x.BodyCol = x.Line+d.i(), d.i()
	}
	s.Occs = make([]Occ, d.n())
	var line int32
	for k := range s.Occs {
		o := &s.Occs[k]
		line += d.i()
		o.Line, o.Col = line, d.i()
		o.End = o.Col + d.i()
		o.Sym, o.Flags, o.Scope = d.i(), uint8(d.u()), d.i()
	}
	s.Scopes = make([]Scope, d.n())
	for k := range s.Scopes {
		sc := &s.Scopes[k]
		sc.Kind, sc.Parent = ScopeKind(d.u()), d.i()
		sc.Bound = make([]string, d.n())
		for j := range sc.Bound {
			sc.Bound[j] = d.s()
		}
		sc.Uses = make([]Use, d.n())
		for j := range sc.Uses {
			sc.Uses[j] = Use{Name: d.s(), Scope: d.i()}
		}
	}
	s.Stars = make([]StarImport, d.n())
	for k := range s.Stars {
		s.Stars[k] = StarImport{Module: d.s(), Level: d.i()}
	}
	if n := d.n(); n > 0 {
		s.Calls = make([]Call, n)
	}
	for k := range s.Calls {
		c := &s.Calls[k]
		c.Expr, c.Open, c.Close = d.i(), d.pos(), d.pos()
		if n := d.n(); n > 0 {
			c.Commas = make([]Pos, n)
		}
		for j := range c.Commas {
			c.Commas[j] = d.pos()
		}
		if n := d.n(); n > 0 {
			c.Keys = make([]string, n)
		}
		for j := range c.Keys {
			c.Keys[j] = d.s()
		}
	}
	s.All = make([]string, d.n())
	for k := range s.All {
		s.All[k] = d.s()
	}
	s.AllKnown, s.AllPartial = d.b(), d.b()
	s.Doc, s.Lines = d.s(), d.i()
	if n := d.n(); n > 0 {
		s.Sites = make([]Site, n)
	}
	for k := range s.Sites {
		st := &s.Sites[k]
		st.Kind, st.Span = SiteKind(d.u()), d.span()
		st.Def, st.Value, st.Arg, st.Sym = d.i(), d.i(), d.i(), d.i()
	}
	if n := d.n(); n > 0 {
		s.Flow = make([]FlowNode, n)
	}
	for k := range s.Flow {
		f := &s.Flow[k]
		f.Kind, f.A, f.B, f.Prev = FlowKind(d.u()), d.i(), d.i(), d.i()
	}
	if n := d.n(); n > 0 {
		s.FlowPreds = make([]int32, n)
	}
	for k := range s.FlowPreds {
		s.FlowPreds[k] = d.i()
	}
	if n := d.n(); n > 0 {
		s.Reads = make([]FlowRead, n)
	}
	var readLine int32
	for k := range s.Reads {
		r := &s.Reads[k]
		readLine += d.i()
		r.Line, r.Col, r.Node = readLine, d.i(), d.i()
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// check verifies every index inside s.
func (s *Summary) check() error {
	ns, ne, nsc := int32(len(s.Syms)), int32(len(s.Exprs)), int32(len(s.Scopes))
	opt := func(v, n int32) bool { return v >= -1 && v < n }
	for k, y := range s.Syms {
		if !opt(y.Scope, nsc) || !opt(y.Class, ns) || !opt(y.Recv, ne) || !opt(y.Target, ns) || !opt(y.Value, ne) {
			return fmt.Errorf("%w: symbol %d has an index out of range", ErrMalformed, k)
		}
	}
	for k, x := range s.Exprs {
		l := x.Lists()
		earlier := func(v int32) bool { return v >= -1 && v < int32(k) }
		bySym := x.Op == ExprSym || x.Op == ExprSuper
		ok := x.Op <= ExprText && (len(l.Keys) <= len(l.Args) || x.Op == ExprLambda)
		switch {
		case x.Op == ExprLambda:
			ok = ok && earlier(x.A) && (x.B == -1 && len(l.Keys) == 0 || x.B >= 0 && int(x.B) == len(l.Keys)) // B counts the parameters Keys name
		case bySym:
			ok = ok && x.A >= 0 && x.A < ns && (x.Op != ExprSym || x.B >= -1 && x.B < int32(len(s.Flow)))
		case x.Op == ExprAttr || x.Op == ExprCall:
			ok = ok && x.A >= 0 && x.A < int32(k) // the receiver and callee are known
		case x.Op == ExprUnpack:
			ok = ok && earlier(x.A) // B is an element index
		default:
			ok = ok && earlier(x.A) && earlier(x.B)
		}
		for _, a := range l.Args {
			ok = ok && earlier(a)
		}
		if !ok {
			return fmt.Errorf("%w: expression %d has an index out of range", ErrMalformed, k)
		}
	}
	for k, df := range s.Defs {
		l := df.Lists()
		ok := df.Sym >= 0 && df.Sym < ns && opt(df.Returns, ne) && opt(df.Body, nsc) && opt(df.Annot, ne) && opt(df.Value, ne)
		for _, p := range l.Params {
			ok = ok && opt(p.Annot, ne) && opt(p.Default, ne)
		}
		for _, v := range slices.Concat(l.ReturnValues, l.YieldValues, l.Decorators) {
			ok = ok && opt(v, ne)
		}
		if !ok {
			return fmt.Errorf("%w: definition %d has an index out of range", ErrMalformed, k)
		}
		for _, b := range l.Bases {
			if !opt(b, ne) { // -1: a base the plugin could not describe
				return fmt.Errorf("%w: definition %d has a base out of range", ErrMalformed, k)
			}
		}
	}
	for k, o := range s.Occs {
		if o.Sym < 0 || o.Sym >= ns || !opt(o.Scope, nsc) || o.Line < 0 || o.Col < 0 || o.End < o.Col {
			return fmt.Errorf("%w: occurrence %d out of range", ErrMalformed, k)
		}
		if k > 0 && (o.Line < s.Occs[k-1].Line || (o.Line == s.Occs[k-1].Line && o.Col < s.Occs[k-1].Col)) {
			return fmt.Errorf("%w: occurrences not sorted at %d", ErrMalformed, k)
		}
	}
	for k, c := range s.Calls {
		if !opt(c.Expr, ne) || c.Expr >= 0 && s.Exprs[c.Expr].Op != ExprCall || c.Close.Less(c.Open) {
			return fmt.Errorf("%w: call %d out of range", ErrMalformed, k)
		}
	}
	nd := int32(len(s.Defs))
	for k, st := range s.Sites {
		ok := st.Kind <= SiteAttribute && opt(st.Def, nd) && opt(st.Value, ne) && opt(st.Sym, ns) && st.Span.Line >= 0 && st.Span.Col >= 0 && st.Span.End >= st.Span.Col
		switch st.Kind {
		case SiteAssign, SiteReturn:
			ok = ok && st.Def >= 0
		case SiteArgument:
			ok = ok && st.Value >= 0 && s.Exprs[st.Value].Op == ExprCall && st.Arg >= 0 && int(st.Arg) < len(s.Exprs[st.Value].Args)
		case SiteAttribute:
			ok = ok && st.Value >= 0 && st.Sym >= 0 && s.Syms[st.Sym].Kind == SymAttr
		}
		if !ok {
			return fmt.Errorf("%w: site %d out of range", ErrMalformed, k)
		}
	}
	nf := int32(len(s.Flow))
	for k, f := range s.Flow {
		ok := f.Kind <= FlowExit && opt(f.Prev, nf)
		switch f.Kind {
		case FlowStart:
			ok = ok && opt(f.A, nsc)
		case FlowAssign:
			ok = ok && f.A >= 0 && f.A < ns && opt(f.B, int32(len(s.Defs)))
		case FlowCond:
			ok = ok && opt(f.A, ne)
		case FlowJoin:
			ok = ok && f.A >= 0 && f.B >= 0 && int(f.A)+int(f.B) <= len(s.FlowPreds)
		case FlowAugAssign:
			ok = ok && f.A >= 0 && f.A < ns && opt(f.B, ne)
		case FlowStore:
			ok = ok && f.A >= 0 && f.A < ne && opt(f.B, ne)
		case FlowCall:
			ok = ok && opt(f.A, ne)
		case FlowExit:
			ok = ok && f.A >= 0 && f.A < nsc && opt(f.B, ne)
		}
		if !ok {
			return fmt.Errorf("%w: flow node %d out of range", ErrMalformed, k)
		}
	}
	for k, p := range s.FlowPreds {
		if p < 0 || p >= nf {
			return fmt.Errorf("%w: flow predecessor %d out of range", ErrMalformed, k)
		}
	}
	for k, r := range s.Reads {
		if r.Node < 0 || r.Node >= nf || k > 0 && r.Pos.Less(s.Reads[k-1].Pos) {
			return fmt.Errorf("%w: flow read %d out of range", ErrMalformed, k)
		}
	}
	for k, sc := range s.Scopes {
		if sc.Parent >= int32(k) || sc.Parent < -1 || (k > 0 && sc.Parent < 0) {
			return fmt.Errorf("%w: scope %d has a bad parent", ErrMalformed, k)
		}
	}
	return nil
}
