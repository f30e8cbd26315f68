package isort

import (
	"regexp"
	"sort"
	"strings"
)

// naturalKey is isort's sorting._natural_keys: the text split into runs of
// digits (compared as integers) and the text between them.
type naturalKey []keyPart

type keyPart struct {
	num  bool
	n    string // digits without leading zeros, for numeric comparison
	text string
}

func naturalKeyOf(s string) naturalKey {
	var k naturalKey
	start := 0
	for i := 0; i <= len(s); {
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			k = append(k, keyPart{text: s[start:i]})
			n := strings.TrimLeft(s[i:j], "0")
			k = append(k, keyPart{num: true, n: n})
			i, start = j, j
			continue
		}
		if i == len(s) {
			k = append(k, keyPart{text: s[start:]})
			break
		}
		i++
	}
	return k
}

func (a naturalKey) less(b naturalKey) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x.num {
			if len(x.n) != len(y.n) {
				return len(x.n) < len(y.n)
			}
			if x.n != y.n {
				return x.n < y.n
			}
			continue
		}
		if x.text != y.text {
			return x.text < y.text
		}
	}
	return len(a) < len(b)
}

// naturally is sorting.naturally: a stable sort by the natural keys of
// key(item) (of the item itself when key is nil).
func naturally(items []string, key func(string) string) []string {
	out := append([]string(nil), items...)
	keys := make(map[string]naturalKey, len(out))
	for _, it := range out {
		k := it
		if key != nil {
			k = key(it)
		}
		keys[it] = naturalKeyOf(k)
	}
	sort.SliceStable(out, func(i, j int) bool { return keys[out[i]].less(keys[out[j]]) })
	return out
}

var relativeRE = regexp.MustCompile(`^(\.+)\s*(.*)`)

// moduleKey is sorting.module_key for the black profile: force_to_top
// empty, order_by_type on, case-insensitive, no length sort.
func moduleKey(name string, subImports bool) string {
	if m := relativeRE.FindStringSubmatch(name); m != nil {
		name = m[1] + "_" + m[2]
	}
	prefix := ""
	if subImports {
		switch {
		case pyIsUpper(name) && pyLen(name) > 1:
			prefix = "A"
		case name != "" && pyIsUpper(firstRune(name)):
			prefix = "B"
		default:
			prefix = "C"
		}
	}
	return "B" + prefix + strings.ToLower(name)
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}
