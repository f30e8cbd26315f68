package index

import "testing"

func TestValidIdentifier(t *testing.T) {
	cases := []struct {
		s  string
		ok bool
	}{
		{"x", true}, {"_private", true}, {"x1", true}, {"élément", true}, {"变量", true}, {"match", true}, {"type", true}, {"_", true},
		{"", false}, {"1x", false}, {"class", false}, {"None", false}, {"a-b", false}, {"a b", false}, {"a.b", false}, {"x$", false},
	}
	for _, c := range cases {
		if got := ValidIdentifier(c.s); got != c.ok {
			t.Errorf("ValidIdentifier(%q) = %v, want %v", c.s, got, c.ok)
		}
	}
}
