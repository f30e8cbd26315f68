package index

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symbolTable is every workspace symbol of one link, with what matching
// reads kept next to it; built at the first search after a relink from
// the previous table's per-file parts where a file did not change.
type symbolTable struct {
	gen   uint64
	order []*symbolPart // in file order
	parts map[*File]*symbolPart
	count int
}

// symbolPart is one file's share of the table.
type symbolPart struct {
	module string // the file's module when it was made
	syms   []Symbol
	lower  []string // names in lower case
	humps  [][]int  // byte offsets where each name's humps start
	masks  []uint64 // the characters each name holds (charMask)
}

func newSymbolPart(f *File) *symbolPart {
	p := &symbolPart{module: f.Module, syms: fileSymbols(f)}
	for _, s := range p.syms {
		lower := strings.ToLower(s.Name)
		p.lower = append(p.lower, lower)
		p.humps = append(p.humps, humpStarts(s.Name))
		p.masks = append(p.masks, charMask(lower))
	}
	return p
}

// charMask has a bit per ASCII letter, digit and '_' in s (one for all
// other bytes): a name lacking a character of the query cannot match
// it, which rejects most names of a large table at the cost of an AND.
func charMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			m |= 1 << (c - 'a')
		case '0' <= c && c <= '9':
			m |= 1 << (26 + c - '0')
		case c == '_':
			m |= 1 << 36
		default:
			m |= 1 << 63
		}
	}
	return m
}

// Found is a page of find_symbols' answer.
type Found struct {
	Symbols []Symbol
	// Total counts every match, Symbols the best Limit of them.
	Total int
}

// FindSymbols searches the workspace's symbols by name: exact, prefix,
// camel/snake-case humps ("gcd" finds get_call_depth, "HTTPConn"
// HTTPConnection, "RF" RequestFactory), then substring, best first;
// kind ("" any) keeps one kind, limit caps Symbols.
func (x *Index) FindSymbols(query, kind string, limit int) Found {
	x.ensureSymbolTable()
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.findLocked(query, kind, limit)
}

// ensureSymbolTable builds the symbol table of the current link if the
// last one was for an earlier link.
func (x *Index) ensureSymbolTable() {
	x.mu.RLock()
	fresh := x.symtab != nil && x.symtab.gen == x.gen
	x.mu.RUnlock()
	if fresh {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.symtab != nil && x.symtab.gen == x.gen {
		return
	}
	t := &symbolTable{gen: x.gen, parts: map[*File]*symbolPart{}}
	for _, f := range x.sorted {
		if f.typeshed || f.Abs == "" {
			continue
		}
		p := x.symtab.reuse(f)
		if p == nil {
			p = newSymbolPart(f)
		}
		t.parts[f] = p
		t.order = append(t.order, p)
		t.count += len(p.syms)
	}
	x.symtab = t
}

// reuse is f's part of the table when f is the same file, under the same
// module name, as when the table was built (nil otherwise).
func (t *symbolTable) reuse(f *File) *symbolPart {
	if t == nil {
		return nil
	}
	if p := t.parts[f]; p != nil && p.module == f.Module {
		return p
	}
	return nil
}

// humpStarts are the offsets where a name's words begin: its first
// letter, a letter after '_' or a digit, an upper-case letter after a
// lower-case one, and the last upper-case letter of a run followed by
// lower case (HTTPConnection: H, C).
func humpStarts(name string) []int {
	var out []int
	prev := rune(-1)
	for i, r := range name {
		next, _ := utf8.DecodeRuneInString(name[i+utf8.RuneLen(r):])
		start := false
		switch {
		case r == '_':
		case prev == -1 || prev == '_' || unicode.IsDigit(prev) != unicode.IsDigit(r):
			start = true
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			start = true
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && unicode.IsLower(next):
			start = true
		}
		if start {
			out = append(out, i)
		}
		prev = r
	}
	return out
}

// Match ranks, better first.
const (
	matchExact = 5 - iota
	matchPrefix
	matchHumps
	matchSubstring
	matchNone = 0
)

// matchName grades lower (the name in lower case, with humps) against q
// (lower case).
func matchName(lower string, humps []int, q string) int {
	switch {
	case lower == q:
		return matchExact
	case strings.HasPrefix(lower, q):
		return matchPrefix
	case humpMatch(lower, humps, q, 0, 0):
		return matchHumps
	case strings.Contains(lower, q):
		return matchSubstring
	}
	return matchNone
}

// humpMatch reports whether q[qi:] is spelled by prefixes of the humps
// from humps[h] on, in order, each used at most once (a hump may be
// skipped): "gcd" is g(et) c(all) d(epth). Names are short, so the
// backtracking stays small.
func humpMatch(lower string, humps []int, q string, qi, h int) bool {
	if qi == len(q) {
		return true
	}
	for ; h < len(humps); h++ {
		end := len(lower)
		if h+1 < len(humps) {
			end = humps[h+1]
		}
		// The longest run of q this hump spells, then shorter ones.
		n := 0
		for humps[h]+n < end && qi+n < len(q) && lower[humps[h]+n] == q[qi+n] {
			n++
		}
		for ; n > 0; n-- {
			if humpMatch(lower, humps, q, qi+n, h+1) {
				return true
			}
		}
	}
	return false
}

func (x *Index) findLocked(query, kind string, limit int) Found {
	t := x.symtab
	q := strings.ToLower(strings.TrimSpace(query))
	if t == nil || q == "" {
		return Found{Symbols: []Symbol{}}
	}
	// A hit is symbol i of part p; p counts in file order.
	type scored struct {
		p, i, grade int
	}
	if limit <= 0 {
		limit = t.count
	}
	better := func(a, b scored) bool {
		if a.grade != b.grade {
			return a.grade > b.grade
		}
		sa, sb := &t.order[a.p].syms[a.i], &t.order[b.p].syms[b.i]
		// Exact case first, public before private, short (close to the
		// query) before long, shallow before nested, then by path.
		if ca, cb := strings.HasPrefix(sa.Name, query), strings.HasPrefix(sb.Name, query); ca != cb {
			return ca
		}
		if pa, pb := strings.HasPrefix(sa.Name, "_"), strings.HasPrefix(sb.Name, "_"); pa != pb {
			return pb
		}
		if len(sa.Name) != len(sb.Name) {
			return len(sa.Name) < len(sb.Name)
		}
		if da, db := strings.Count(sa.Container, "."), strings.Count(sb.Container, "."); da != db || (sa.Container == "") != (sb.Container == "") {
			return sa.Container == "" || (sb.Container != "" && da < db)
		}
		if a.p != b.p {
			return a.p < b.p // file order, then declaration order
		}
		return a.i < b.i
	}
	// The best limit, kept sorted as the hits go by: a one-letter query
	// over the standard library matches ~20,000 names, and collecting and
	// sorting them all took 30-70 ms.
	top := make([]scored, 0, min(limit, 64))
	total := 0
	qmask := charMask(q)
	for pi, p := range t.order {
		for i, lower := range p.lower {
			if qmask&^p.masks[i] != 0 || kind != "" && p.syms[i].Kind != kind {
				continue
			}
			g := matchName(lower, p.humps[i], q)
			if g == matchNone {
				continue
			}
			total++
			h := scored{pi, i, g}
			if len(top) == limit && !better(h, top[limit-1]) {
				continue
			}
			at := sort.Search(len(top), func(j int) bool { return better(h, top[j]) })
			if len(top) < limit {
				top = append(top, scored{})
			}
			copy(top[at+1:], top[at:len(top)-1])
			top[at] = h
		}
	}
	hits := top
	out := make([]Symbol, len(hits))
	for i, h := range hits {
		out[i] = t.order[h.p].syms[h.i]
	}
	return Found{Symbols: out, Total: total}
}
