package navindex

import (
	"errors"
	"reflect"
	"testing"
)

func sample() *Summary {
	return &Summary{
		Syms: []Sym{
			{Kind: SymLocal, Name: "f", Qual: "f", Scope: 0, Class: -1, Recv: -1, Target: -1, Value: -1},
			{Kind: SymImport, Name: "x", SymModule: &SymModule{Module: "pkg.mod", Level: 1}, Scope: -1, Class: -1, Recv: -1, Target: -1, Value: -1},
			{Kind: SymAttr, Name: "y", Recv: 0, Scope: -1, Class: -1, Target: -1, Value: -1},
		},
		Exprs: []Expr{{Op: ExprSym, A: 1, B: -1}, {Op: ExprCall, A: 0, B: -1}, {Op: ExprSuper, A: 0, B: -1},
			{Op: ExprLit, A: -1, B: -1, Name: "int", Text: "10"},
			{Op: ExprCall, A: 0, B: -1, ExprLists: &ExprLists{Args: []int32{3, 1}, Keys: []string{"key"}}},
			{Op: ExprOper, A: 3, B: 1, Name: "|"},
			{Op: ExprUnpack, A: 4, B: 2, Name: "*"}},
		Defs: []Def{{Sym: 0, Kind: KindFunction, Name: Span{Line: 3, Col: 4, End: 5}, Returns: 1, Body: 1, Sig: "def f()", Doc: "**Args:**",
			Annot: 5, Value: -1, Flags: DefAsync | DefReturnsNone, DefLists: &DefLists{Bases: []int32{1, -1}, Params: []Param{{Name: "a", Kind: ParamPosOnly, Annot: 0, Default: 3, DefaultText: "10", HasDefault: true}, {Name: "kw", Kind: ParamVarKwargs, Annot: -1, Default: -1}},
				ReturnValues: []int32{3, 4}, YieldValues: []int32{3, -1}, Decorators: []int32{0}}}},
		Occs: []Occ{
			{Span: Span{Line: 3, Col: 4, End: 5}, Sym: 0, Flags: OccDef, Scope: 0},
			{Span: Span{Line: 7, Col: 0, End: 1}, Sym: 2, Flags: OccString, Scope: 1},
		},
		Scopes: []Scope{{Kind: ScopeModule, Parent: -1, Bound: []string{"f"}, Uses: []Use{{Name: "len", Scope: -1}}}, {Kind: ScopeFunction, Parent: 0, Bound: []string{}, Uses: []Use{}}},
		Stars:  []StarImport{{Module: "m", Level: 0}},
		Calls:  []Call{{Expr: 4, Open: Pos{7, 2}, Close: Pos{8, 0}, Commas: []Pos{{7, 4}}, Keys: []string{"", "key"}}, {Expr: -1, Open: Pos{8, 3}, Close: Pos{8, 3}}},
		All:    []string{"f"}, AllKnown: true,
		Doc: "module", Lines: 9,
		Sites: []Site{{Kind: SiteReturn, Span: Span{Line: 4, Col: 11, End: 13}, Def: 0, Value: 3, Arg: -1, Sym: -1},
			{Kind: SiteArgument, Span: Span{Line: 7, Col: 2, End: 4}, Def: -1, Value: 4, Arg: 1, Sym: -1},
			{Kind: SiteAttribute, Span: Span{Line: 8, Col: 6, End: 8}, Def: -1, Value: 3, Arg: -1, Sym: 2}},
		// v9: x = f (line 3), then `if x:` joins back, x read at 7:0.
		Flow: []FlowNode{{Kind: FlowStart, A: 1, B: 0, Prev: -1}, {Kind: FlowAssign, A: 0, B: 0, Prev: 0},
			{Kind: FlowCond, A: 0, B: 0, Prev: 1}, {Kind: FlowCond, A: 0, B: 1, Prev: 1},
			{Kind: FlowJoin, A: 0, B: 2, Prev: -1}, {Kind: FlowAugAssign, A: 0, B: 5, Prev: 4},
			{Kind: FlowStore, A: 0, B: -1, Prev: 5}},
		FlowPreds: []int32{2, 3},
		Reads:     []FlowRead{{Pos: Pos{5, 2}, Node: 2}, {Pos: Pos{7, 0}, Node: 6}},
	}
}

func TestRoundTrip(t *testing.T) {
	s := sample()
	got, err := Decode(Encode(s))
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Exprs {
		s.Exprs[i].ExprLists = s.Exprs[i].Lists() // decoded: the shared empty lists
	}
	for i := range s.Syms {
		s.Syms[i].SymModule = s.Syms[i].ModuleOf()
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, s)
	}
}

// TestListsApart checks that expressions and definitions without lists,
// and symbols naming no module, encode as before (none given at all) and
// decode sharing one empty DefLists, ExprLists or SymModule, while each
// with some gets its own.
func TestListsApart(t *testing.T) {
	s := sample()
	s.Defs = append(s.Defs, Def{Sym: 1, Kind: KindVariable, Returns: -1, Body: -1, Annot: -1, Value: -1})
	got, err := Decode(Encode(s))
	if err != nil {
		t.Fatal(err)
	}
	x, d := got.Exprs, got.Defs
	if x[0].ExprLists == nil || x[0].ExprLists != x[1].ExprLists || len(x[0].Args)+len(x[0].Keys) != 0 {
		t.Errorf("expressions without lists: %p %p, want one shared empty ExprLists", x[0].ExprLists, x[1].ExprLists)
	}
	if x[4].ExprLists == x[0].ExprLists || !reflect.DeepEqual(x[4].Args, []int32{3, 1}) {
		t.Errorf("a call's lists: %+v", x[4].ExprLists)
	}
	if d[1].DefLists == nil || len(d[1].Params) != 0 || d[0].DefLists == d[1].DefLists {
		t.Errorf("definition lists: %p %p", d[0].DefLists, d[1].DefLists)
	}
	if (&Def{}).Lists() == nil || (&Expr{}).Lists() == nil || (&Sym{}).ModuleOf() == nil {
		t.Error("Lists of a zero Def or Expr, or ModuleOf of a zero Sym, is nil")
	}
	y := got.Syms
	if y[0].SymModule == nil || y[0].SymModule != y[2].SymModule || y[0].Module != "" || y[1].Module != "pkg.mod" || y[1].Level != 1 {
		t.Errorf("symbols' modules: %+v %+v %+v", y[0].SymModule, y[1].SymModule, y[2].SymModule)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := Encode(sample())
	bad := func(mut func(*Summary)) []byte {
		s := sample()
		mut(s)
		return Encode(s)
	}
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XXXX"), good[4:]...)},
		{"truncated", good[:len(good)-3]},
		{"symbol index out of range", bad(func(s *Summary) { s.Occs[0].Sym = 99 })},
		{"expression forward reference", bad(func(s *Summary) { s.Exprs[1].A = 2 })},
		{"unsorted occurrences", bad(func(s *Summary) { s.Occs[1].Line = 0 })},
		{"scope parent after itself", bad(func(s *Summary) { s.Scopes[1].Parent = 1 })},
		{"definition body out of range", bad(func(s *Summary) { s.Defs[0].Body = 5 })},
		{"call argument forward reference", bad(func(s *Summary) { s.Exprs[4].Args[0] = 4 })},
		{"more keys than arguments", bad(func(s *Summary) { s.Exprs[4].Keys = []string{"a", "b", "c"} })},
		{"parameter annotation out of range", bad(func(s *Summary) { s.Defs[0].Params[0].Annot = 99 })},
		{"return value out of range", bad(func(s *Summary) { s.Defs[0].ReturnValues[1] = 7 })},
		{"yield value out of range", bad(func(s *Summary) { s.Defs[0].YieldValues[0] = 7 })},
		{"unknown operator", bad(func(s *Summary) { s.Exprs[3].Op = 99 })},
		{"site's argument past the call's", bad(func(s *Summary) { s.Sites[1].Arg = 2 })},
		{"argument site of no call", bad(func(s *Summary) { s.Sites[1].Value = 3 })},
		{"site's def out of range", bad(func(s *Summary) { s.Sites[0].Def = 1 })},
		{"return site without a def", bad(func(s *Summary) { s.Sites[0].Def = -1 })},
		{"unknown site kind", bad(func(s *Summary) { s.Sites[0].Kind = 9 })},
		{"attribute site of no attribute", bad(func(s *Summary) { s.Sites[2].Sym = 0 })},
		{"flow node out of range", bad(func(s *Summary) { s.Flow[2].Prev = 9 })},
		{"flow join past its predecessors", bad(func(s *Summary) { s.Flow[4].B = 3 })},
		{"flow predecessor out of range", bad(func(s *Summary) { s.FlowPreds[1] = 7 })},
		{"unknown flow kind", bad(func(s *Summary) { s.Flow[1].Kind = 42 })},
		{"read of a node out of range", bad(func(s *Summary) { s.Reads[0].Node = 7 })},
		{"unsorted reads", bad(func(s *Summary) { s.Reads[1].Line = 1 })},
		{"read's flow out of range", bad(func(s *Summary) { s.Exprs[0].B = 7 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Decode(c.b); !errors.Is(err, ErrMalformed) {
				t.Fatalf("err %v, want ErrMalformed", err)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode(sample()))
	f.Add(Encode(&Summary{}))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Decode(b)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to something that decodes the same.
		again, err := Decode(Encode(s))
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
