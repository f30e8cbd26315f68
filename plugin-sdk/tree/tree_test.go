package tree

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func mustDecode(t testing.TB, blob []byte, src string) *Tree {
	t.Helper()
	tr, err := Decode(blob, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestDecodeRejects(t *testing.T) {
	valid := sampleSpec().encode()
	tests := []struct {
		name   string
		mutate func(s *blobSpec)
		blob   func() []byte // overrides mutate
		want   string
	}{
		{name: "empty", blob: func() []byte { return nil }, want: "magic"},
		{name: "bad magic", blob: func() []byte { b := slices.Clone(valid); b[0] = 'X'; return b }, want: "magic"},
		{name: "truncated header", blob: func() []byte { return valid[:6] }, want: "truncated header"},
		{name: "future version", mutate: func(s *blobSpec) { s.version = 2 }, want: "layout version 2"},
		{name: "source length", mutate: func(s *blobSpec) { s.srcLen = 4 }, want: "4-byte source"},
		{name: "truncated symbols", blob: func() []byte { return valid[:30] }, want: "truncated symbol"},
		{name: "truncated records", blob: func() []byte { return valid[:len(valid)-1] }, want: "node count"},
		{name: "trailing bytes", blob: func() []byte { return append(slices.Clone(valid), make([]byte, NodeSize)...) }, want: "node count"},
		{name: "no nodes", blob: func() []byte {
			n := len(valid) - 7*NodeSize - 4
			b := slices.Clone(valid[:n])
			return append(b, 0, 0, 0, 0)
		}, want: "node count 0"},
		{name: "huge node count", blob: func() []byte {
			n := len(valid) - 7*NodeSize - 4
			b := slices.Clone(valid)
			b[n], b[n+1], b[n+2], b[n+3] = 0xff, 0xff, 0xff, 0xff
			return b
		}, want: "node count 4294967295"},
		{name: "unknown symbol", mutate: func(s *blobSpec) { s.root.kids[0].sym = 8 }, want: "symbol 8 of 8"},
		{name: "error flag without error symbol", mutate: func(s *blobSpec) { s.root.kids[0].flags |= FlagError }, want: "error flag"},
		{name: "error symbol without flag", mutate: func(s *blobSpec) { s.root.kids[0].sym = ErrorSymbol }, want: "error flag"},
		{name: "unknown field", mutate: func(s *blobSpec) { s.root.kids[0].kids[0].field = 3 }, want: "field 3 of 2"},
		{name: "root with field", mutate: func(s *blobSpec) { s.root.field = 1 }, want: "root has field"},
		{name: "range past source", mutate: func(s *blobSpec) { s.root.end = 6 }, want: "outside source"},
		{name: "inverted range", mutate: func(s *blobSpec) { s.root.kids[0].kids[0].start = 2 }, want: "outside source"},
		{name: "child outside parent", mutate: func(s *blobSpec) { s.root.kids[0].end = 3 }, want: "outside parent"},
		{name: "siblings overlap", mutate: func(s *blobSpec) { s.root.kids[0].kids[1].start = 0 }, want: "before its previous sibling"},
		{name: "root size", mutate: func(s *blobSpec) { s.root.size, s.root.sizeSet = 3, true }, want: "root subtree size"},
		{name: "huge size", mutate: func(s *blobSpec) { s.root.kids[0].kids[0].size, s.root.kids[0].kids[0].sizeSet = 0xffffffff, true }, want: "overruns"},
		{name: "zero size", mutate: func(s *blobSpec) { s.root.kids[0].kids[0].sizeSet = true }, want: "overruns"},
		{name: "child overruns parent", mutate: func(s *blobSpec) {
			s.root.kids[0].kids[1].kids[2].size, s.root.kids[0].kids[1].kids[2].sizeSet = 2, true
		}, want: "overruns"},
		{name: "too many symbols", blob: func() []byte {
			b := slices.Clone(valid)
			b[12], b[13], b[14], b[15] = 0xff, 0xff, 0x01, 0
			return b
		}, want: "symbols, at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var blob []byte
			if tt.blob != nil {
				blob = tt.blob()
			} else {
				s := sampleSpec()
				tt.mutate(&s)
				blob = s.encode()
			}
			tr, err := Decode(blob, []byte(sampleSource))
			if err == nil {
				t.Fatalf("accepted: %s", tr.Root())
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrInvalid containing %q", err, tt.want)
			}
		})
	}
}

func TestNavigation(t *testing.T) {
	tr := mustDecode(t, sampleSpec().encode(), sampleSource)
	root := tr.Root()
	call := root.Child(0)
	fn := call.ChildByField("function")
	args := call.ChildByField("arguments")
	x := args.NamedChild(0)
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"sexpr", root.String(), "(module (call function: (identifier) arguments: (argument_list (identifier))))"},
		{"node count", tr.NodeCount(), 7},
		{"root parent", root.Parent().IsNull(), true},
		{"call kind", call.Kind(), "call"},
		{"fn text", string(fn.Text()), "f"},
		{"fn field", fn.FieldName(), "function"},
		{"args field", args.FieldName(), "arguments"},
		{"args children", args.ChildCount(), 3},
		{"args named children", args.NamedChildCount(), 1},
		{"x text", string(x.Text()), "x"},
		{"x field", x.FieldName(), ""},
		{"x parent", x.Parent() == args, true},
		{"paren named", args.Child(0).IsNamed(), false},
		{"paren kind", args.Child(0).Kind(), "("},
		{"x prev", x.PrevSibling().Kind(), "("},
		{"x next", x.NextSibling().Kind(), ")"},
		{"first prev", args.Child(0).PrevSibling().IsNull(), true},
		{"last next", args.Child(2).NextSibling().IsNull(), true},
		{"root next", root.NextSibling().IsNull(), true},
		{"fn next", fn.NextSibling() == args, true},
		{"child out of range", args.Child(3).IsNull(), true},
		{"leaf first child", x.FirstChild().IsNull(), true},
		{"no such field", call.ChildByField("body").IsNull(), true},
		{"at x", tr.DescendantForByteRange(2, 2) == x, true},
		{"at paren boundary", tr.DescendantForByteRange(1, 1).Kind(), "("},
		{"named at paren", tr.NamedDescendantForByteRange(1, 1) == args, true},
		{"span f(x", tr.DescendantForByteRange(0, 3) == call, true},
		{"at newline", tr.DescendantForByteRange(4, 4) == root, true},
		{"out of range", tr.DescendantForByteRange(100, 200) == root, true},
		{"negative", tr.DescendantForByteRange(-1, 0) == root, true},
		{"kind id", func() bool { id, ok := tr.KindID("identifier", true); return ok && id == x.KindID() }(), true},
		{"anon kind id", func() bool { id, ok := tr.KindID("(", false); return ok && id == 5 }(), true},
		{"hidden kind id", func() bool { _, ok := tr.KindID("_hidden", true); return ok }(), false},
		{"field id", func() bool { id, ok := tr.FieldID("arguments"); return ok && id == args.FieldID() }(), true},
		{"index round trip", tr.NodeAt(x.Index()) == x, true},
		{"node at out of range", tr.NodeAt(7).IsNull(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}

	var kinds []string
	root.Walk(func(n Node) bool {
		kinds = append(kinds, n.Kind())
		return n.Kind() != "argument_list" // skip its tokens
	})
	if got := strings.Join(kinds, " "); got != "module call identifier argument_list" {
		t.Errorf("Walk = %s", got)
	}
	kinds = kinds[:0]
	for n := range call.Descendants() {
		kinds = append(kinds, n.Kind())
	}
	if got := strings.Join(kinds, " "); got != "call identifier argument_list ( identifier )" {
		t.Errorf("Descendants = %s", got)
	}
}

func TestNullNode(t *testing.T) {
	var n Node
	if !n.IsNull() || n.Kind() != "" || n.Text() != nil || n.ChildCount() != 0 || !n.Parent().IsNull() ||
		!n.NextSibling().IsNull() || !n.PrevSibling().IsNull() || !n.ChildByField("x").IsNull() ||
		n.Index() != -1 || n.IsNamed() || n.HasError() || n.String() != "<null>" || !n.DescendantForByteRange(0, 0).IsNull() {
		t.Error("null node is not inert")
	}
	n.Walk(func(Node) bool { t.Error("walked a null node"); return true })
}

func TestErrorNodes(t *testing.T) {
	s := sampleSpec()
	// (module (ERROR (identifier)) ...) with a MISSING ")" in the call.
	s.root.flags |= FlagHasError
	s.root.kids[0].flags |= FlagHasError
	s.root.kids[0].kids[1].flags |= FlagHasError
	s.root.kids[0].kids[1].kids[2] = bnode{sym: 6, flags: FlagMissing | FlagHasError, start: 3, end: 3}
	s.root.kids = append(s.root.kids, bnode{sym: ErrorSymbol, flags: FlagNamed | FlagError | FlagHasError, start: 4, end: 5})
	tr := mustDecode(t, s.encode(), sampleSource)
	if got, want := tr.Root().String(), `(module (call function: (identifier) arguments: (argument_list (identifier) (MISSING ")"))) (ERROR))`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	e := tr.Root().Child(1)
	if !e.IsError() || e.Kind() != "ERROR" || e.KindID() != ErrorSymbol || !tr.Root().HasError() {
		t.Errorf("ERROR node: kind %q error %v", e.Kind(), e.IsError())
	}
}

// TestDecodeReusesLanguage checks the table cache: decoding identical
// tables again must not allocate the kind strings anew.
func TestDecodeReusesLanguage(t *testing.T) {
	blob := sampleSpec().encode()
	mustDecode(t, blob, sampleSource)
	allocs := testing.AllocsPerRun(100, func() { mustDecode(t, blob, sampleSource) })
	if allocs > 8 { // Tree, nodes, parent and the ancestor stacks
		t.Errorf("Decode allocates %v times per call", allocs)
	}
}

// TestDecodeRealBlob decodes a blob produced by the parser module
// (written by plugin-sdk/parsertest's TestTreeTestdata).
func TestDecodeRealBlob(t *testing.T) {
	src, blob := sampleBlob(t)
	tr := mustDecode(t, blob, string(src))
	checkInvariants(t, tr)
	fn := tr.Root().NamedChild(0)
	if fn.Kind() != "function_definition" || string(fn.ChildByField("name").Text()) != "greet" {
		t.Errorf("first statement: %s", fn)
	}
}

// TestDecodeFieldByField checks that the one-copy decoding of records
// (little-endian machines) and the field-by-field one agree.
func TestDecodeFieldByField(t *testing.T) {
	src, blob := sampleBlob(t)
	fast := mustDecode(t, blob, string(src))
	defer func(v bool) { recordsAreNodes = v }(recordsAreNodes)
	recordsAreNodes = false
	slow := mustDecode(t, blob, string(src))
	if !slices.Equal(fast.nodes, slow.nodes) || !slices.Equal(fast.parent, slow.parent) {
		t.Error("the two decodings differ")
	}
	checkInvariants(t, slow)
}

func TestKindClasses(t *testing.T) {
	tr := mustDecode(t, sampleSpec().encode(), sampleSource)
	names := map[string]uint8{}
	for i, n := 0, tr.NodeCount(); i < n; i++ {
		names[tr.NodeAt(i).Kind()] = uint8(len(names) + 1)
	}
	k := NewKindClasses(names)
	table := k.Table(tr)
	for i, n := 0, tr.NodeCount(); i < n; i++ {
		nd := tr.NodeAt(i)
		if want := names[nd.Kind()]; k.Of(nd) != want || table.Of(nd) != want {
			t.Errorf("node %d (%s): classes %d, %d, want %d", i, nd.Kind(), k.Of(nd), table.Of(nd), want)
		}
	}
	null := NewKindClasses(map[string]uint8{"": 7})
	if null.Of(Node{}) != 7 || null.Table(tr).Of(Node{}) != 7 || k.Of(Node{}) != 0 {
		t.Error("class of the null node")
	}
}

// TestFieldID checks FieldID's search by name length against the table.
func TestFieldID(t *testing.T) {
	blob, err := os.ReadFile("testdata/sample.blob")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile("testdata/sample.py")
	tr := mustDecode(t, blob, string(src))
	for i, name := range tr.lang.fields[1:] {
		if id, ok := tr.FieldID(name); !ok || tr.lang.fields[id] != name || int(id) > i+1 {
			t.Errorf("FieldID(%q) = %d, %v", name, id, ok)
		}
	}
	for _, name := range []string{"", "x", "nam", "names", "Name", strings.Repeat("n", 40)} {
		if id, ok := tr.FieldID(name); ok {
			t.Errorf("FieldID(%q) = %d for a field the language lacks", name, id)
		}
	}
}

// sampleBlob reads testdata/sample.py and the parser module's blob of it.
func sampleBlob(t *testing.T) (src, blob []byte) {
	t.Helper()
	src, err := os.ReadFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	if blob, err = os.ReadFile("testdata/sample.blob"); err != nil {
		t.Fatal(err)
	}
	return src, blob
}

func TestRootHasError(t *testing.T) {
	src, blob := sampleBlob(t)
	got, err := RootHasError(blob)
	if err != nil || got != mustDecode(t, blob, string(src)).Root().HasError() {
		t.Fatalf("RootHasError = %v, %v; Decode's root says %v", got, err, !got)
	}
	for n := range len(blob) - NodeSize*(mustDecode(t, blob, string(src)).NodeCount()-1) {
		if _, err := RootHasError(blob[:n]); err == nil {
			t.Fatalf("a blob cut to %d bytes, before the root record ends, was read", n)
		}
	}
}

// TestDepth: the depth found while decoding is the deepest chain of
// parents, and FirstDeeperThan finds the first node past a limit.
func TestDepth(t *testing.T) {
	src, blob := sampleBlob(t)
	tr := mustDecode(t, blob, string(src))
	want, first := 0, map[int]int{} // depth -> first index at that depth
	for i := range tr.NodeCount() {
		d := 0
		for n := tr.NodeAt(i); !n.IsNull(); n = n.Parent() {
			d++
		}
		want = max(want, d)
		if _, ok := first[d]; !ok {
			first[d] = i
		}
	}
	if tr.Depth() != want {
		t.Fatalf("Depth %d, want %d", tr.Depth(), want)
	}
	for limit := 1; limit < want; limit++ {
		if got := tr.FirstDeeperThan(limit); got.IsNull() || got.Index() != first[limit+1] {
			t.Errorf("FirstDeeperThan(%d) = %v, want index %d", limit, got, first[limit+1])
		}
	}
	if !tr.FirstDeeperThan(want).IsNull() {
		t.Error("a node deeper than the depth")
	}
}
