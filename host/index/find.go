package index

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symbolTable is every workspace symbol of one link, with what matching
// reads kept next to it; built at the first search after a relink.
type symbolTable struct {
	gen   uint64
	syms  []Symbol
	lower []string // names in lower case
	humps [][]int  // byte offsets where each name's humps start
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
	t := &symbolTable{gen: x.gen}
	for _, f := range x.sorted {
		if f.typeshed || f.Abs == "" {
			continue
		}
		for _, s := range fileSymbols(f) {
			t.syms = append(t.syms, s)
			t.lower = append(t.lower, strings.ToLower(s.Name))
			t.humps = append(t.humps, humpStarts(s.Name))
		}
	}
	x.symtab = t
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
	type scored struct {
		i, grade int
	}
	var hits []scored
	for i, lower := range t.lower {
		if kind != "" && t.syms[i].Kind != kind {
			continue
		}
		if g := matchName(lower, t.humps[i], q); g != matchNone {
			hits = append(hits, scored{i, g})
		}
	}
	better := func(a, b scored) bool {
		if a.grade != b.grade {
			return a.grade > b.grade
		}
		sa, sb := &t.syms[a.i], &t.syms[b.i]
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
		return a.i < b.i // file order, then declaration order
	}
	total := len(hits)
	if limit > 0 && len(hits) > limit {
		// The best limit, kept sorted as the hits go by: a one-letter
		// query over the standard library matches ~20,000 names, and
		// sorting them all took 30-70 ms.
		top := make([]scored, 0, limit)
		for _, h := range hits {
			if len(top) == limit && !better(h, top[limit-1]) {
				continue
			}
			i := sort.Search(len(top), func(i int) bool { return better(h, top[i]) })
			if len(top) < limit {
				top = append(top, scored{})
			}
			copy(top[i+1:], top[i:len(top)-1])
			top[i] = h
		}
		hits = top
	} else {
		sort.Slice(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
	}
	out := make([]Symbol, len(hits))
	for i, h := range hits {
		out[i] = t.syms[h.i]
	}
	return Found{Symbols: out, Total: total}
}
