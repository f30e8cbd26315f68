package summarize

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Static conditions: the branches of `if` statements that never run for
// the target Python version and platform (sys.version_info,
// sys.platform, os.name and not/and/or of them), as pyright decides
// them. TYPE_CHECKING is left undecided: its else branch runs.

// byteRange is [start, end) of the source.
type byteRange struct{ start, end int }

// staticFalseRanges fills b.falseRanges: sorted, disjoint. It looks at
// the if statements whose condition reads sys.version_info,
// sys.platform or os.name, found from pysem's references to sys and os
// (not by a pass over every node or byte).
func (b *builder) staticFalseRanges() {
	var rs []byteRange
	var done []int // the if statements looked at
	add := func(n tree.Node) {
		if !n.IsNull() {
			rs = append(rs, byteRange{n.StartByte(), n.EndByte()})
		}
	}
	for _, r := range b.m.Refs {
		if len(r.Name) > 3 || r.Name != "sys" && r.Name != "os" || b.kt.Of(r.Node) != kIdentifier {
			continue
		}
		attr := r.Node.Parent()
		if b.kt.Of(attr) != kAttribute {
			continue
		}
		switch b.dotted(attr) {
		case "sys.version_info", "sys.platform", "os.name":
		default:
			continue
		}
		n := b.enclosingIf(attr)
		if n.IsNull() || slices.Contains(done, n.Index()) {
			continue
		}
		done = append(done, n.Index())
		b.staticIf(n, add)
	}
	slices.SortFunc(rs, func(x, y byteRange) int { return x.start - y.start })
	for _, r := range rs {
		if k := len(b.falseRanges); k > 0 && r.start < b.falseRanges[k-1].end {
			continue // inside the previous one
		}
		b.falseRanges = append(b.falseRanges, r)
	}
}

// enclosingIf is the if statement whose condition (or an elif's) holds
// n, null when n is not in one.
func (b *builder) enclosingIf(n tree.Node) tree.Node {
	for ; !n.IsNull(); n = n.Parent() {
		switch b.kt.Of(n) {
		case kIf:
			return n
		case kElif:
			return n.Parent()
		case kBlock, kExprStatement, kLambda, kFuncDef, kClassDef:
			return tree.Node{}
		}
	}
	return n
}

// staticIf adds (with add) the branches of if statement n that never
// run: those whose condition is false, and those after a branch whose
// condition is true.
func (b *builder) staticIf(n tree.Node, add func(tree.Node)) {
	v := b.static(n.ChildByFieldID(b.f.condition))
	if v < 0 {
		add(n.ChildByFieldID(b.f.consequence))
	}
	taken := v > 0 // an earlier branch always runs
	for alt := n.FirstChild(); !alt.IsNull(); alt = alt.NextSibling() {
		if alt.FieldID() != b.f.alternative {
			continue
		}
		if b.kt.Of(alt) == kElse {
			if taken {
				add(alt.ChildByFieldID(b.f.body))
			}
			continue
		}
		v := b.static(alt.ChildByFieldID(b.f.condition))
		if taken || v < 0 {
			add(alt.ChildByFieldID(b.f.consequence))
		}
		taken = taken || v > 0
	}
}

// staticFalse reports whether offset off is in a branch that never runs.
func (b *builder) staticFalse(off int) bool {
	rs := b.falseRanges
	if len(rs) == 0 {
		return false
	}
	i, _ := slices.BinarySearchFunc(rs, off, func(r byteRange, off int) int {
		if r.end <= off {
			return -1
		}
		if r.start > off {
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i].start <= off && off < rs[i].end
}

// static is 1 when condition n is statically true for the target, -1
// when false, 0 when undecided.
func (b *builder) static(n tree.Node) int8 {
	switch b.kt.Of(n) {
	case kParenthesized:
		if n.NamedChildCount() == 1 {
			return b.static(n.NamedChild(0))
		}
	case kNotOp:
		return -b.static(n.ChildByFieldID(b.f.argument))
	case kBoolOp:
		l, r := b.static(n.ChildByFieldID(b.f.left)), b.static(n.ChildByFieldID(b.f.right))
		if b.opText(n.ChildByFieldID(b.f.operator)) == "and" {
			return min(l, r) // false wins, then undecided
		}
		return max(l, r)
	case kCall: // sys.platform.startswith("linux")
		fn := n.ChildByFieldID(b.f.function)
		args := n.ChildByFieldID(b.f.arguments)
		if b.kt.Of(fn) == kAttribute && string(fn.ChildByFieldID(b.f.attribute).Text()) == "startswith" &&
			b.dotted(fn.ChildByFieldID(b.f.object)) == "sys.platform" && args.NamedChildCount() == 1 {
			if s, ok := b.strConst(args.NamedChild(0)); ok {
				return truth(len(b.platform) >= len(s) && b.platform[:len(s)] == s)
			}
		}
	case kComparison:
		return b.staticComparison(n)
	}
	return 0
}

func truth(v bool) int8 {
	if v {
		return 1
	}
	return -1
}

// dotted is the text of a name or a.b attribute chain ("" otherwise).
func (b *builder) dotted(n tree.Node) string {
	switch b.kt.Of(n) {
	case kIdentifier:
		return string(n.Text())
	case kAttribute:
		if o := b.dotted(n.ChildByFieldID(b.f.object)); o != "" {
			return o + "." + string(n.ChildByFieldID(b.f.attribute).Text())
		}
	}
	return ""
}

func (b *builder) strConst(n tree.Node) (string, bool) {
	if b.kt.Of(n) != kString {
		return "", false
	}
	typ, v, ok := stringValue(n.Text(), -1)
	return string(v), ok && typ == "str"
}

// staticComparison decides `sys.version_info <op> (3, N)` (also
// [:N] and [0] of it), `sys.platform ==/!=/in "..."`, `os.name ==/!= "..."`.
func (b *builder) staticComparison(n tree.Node) int8 {
	var operands []tree.Node
	var op string
	for c := n.FirstChild(); !c.IsNull(); c = c.NextSibling() {
		if c.FieldID() == b.f.operators {
			op = b.opText(c)
		} else if c.IsNamed() && b.kt.Of(c) != kComment {
			operands = append(operands, c)
		}
	}
	if len(operands) != 2 {
		return 0
	}
	l, r := operands[0], operands[1]
	switch b.dotted(l) {
	case "sys.platform":
		return b.strCompare(b.platform, op, r)
	case "os.name":
		name := "posix"
		if b.platform == "win32" {
			name = "nt"
		}
		return b.strCompare(name, op, r)
	}
	// The version: sys.version_info is (3, minor, 0, 'final', 0).
	ver := []int{3, b.minor, 0}
	full := true // the whole 5-tuple: longer than any tuple written
	scalar := false
	if b.kt.Of(l) == kSubscript {
		idx := l.ChildByFieldID(b.f.subscript)
		l = l.ChildByFieldID(b.f.value)
		switch b.kt.Of(idx) {
		case kInteger: // sys.version_info[0]
			i, err := strconv.Atoi(string(idx.Text()))
			if err != nil || i > 2 {
				return 0
			}
			ver, scalar = ver[i:i+1], true
		case kSlice: // sys.version_info[:2]
			t := idx.Text()
			if len(t) < 2 || t[0] != ':' {
				return 0
			}
			k, err := strconv.Atoi(string(bytes.TrimSpace(t[1:])))
			if err != nil || k < 1 || k > 3 {
				return 0
			}
			ver, full = ver[:k], false
		default:
			return 0
		}
	}
	if b.dotted(l) != "sys.version_info" {
		return 0
	}
	var want []int
	if scalar {
		if b.kt.Of(r) != kInteger {
			return 0
		}
		v, err := strconv.Atoi(string(r.Text()))
		if err != nil {
			return 0
		}
		want, full = []int{v}, false
	} else {
		if b.kt.Of(r) != kTuple {
			return 0
		}
		for c := firstNamed(r); !c.IsNull(); c = nextNamed(c) {
			v, err := strconv.Atoi(string(c.Text()))
			if b.kt.Of(c) != kInteger || err != nil {
				return 0
			}
			want = append(want, v)
		}
		if len(want) == 0 || len(want) > 3 {
			return 0
		}
	}
	cmp := 0
	for i := 0; i < len(want) && cmp == 0; i++ {
		switch {
		case i >= len(ver):
			cmp = -1 // a shorter tuple is smaller
		case ver[i] < want[i]:
			cmp = -1
		case ver[i] > want[i]:
			cmp = 1
		}
	}
	if cmp == 0 && (full || len(ver) > len(want)) {
		cmp = 1
	}
	switch op {
	case "<":
		return truth(cmp < 0)
	case "<=":
		return truth(cmp <= 0)
	case ">":
		return truth(cmp > 0)
	case ">=":
		return truth(cmp >= 0)
	case "==":
		return truth(cmp == 0)
	case "!=":
		return truth(cmp != 0)
	}
	return 0
}

// strCompare decides `have <op> r` for a string or a tuple of strings r.
func (b *builder) strCompare(have, op string, r tree.Node) int8 {
	switch op {
	case "==", "!=":
		s, ok := b.strConst(r)
		if !ok {
			return 0
		}
		return truth((s == have) == (op == "=="))
	case "in", "not in":
		if k := b.kt.Of(r); k != kTuple && k != kList && k != kSet {
			return 0
		}
		in := false
		for c := firstNamed(r); !c.IsNull(); c = nextNamed(c) {
			s, ok := b.strConst(c)
			if !ok {
				return 0
			}
			in = in || s == have
		}
		return truth(in == (op == "in"))
	}
	return 0
}
