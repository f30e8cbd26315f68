package pylex

import (
	"strings"
	"testing"
)

func TestKeywordAt(t *testing.T) {
	tests := []struct {
		name string
		src  string // "|" marks the offset
		want string // "" for none
	}{
		{"return", "def f():\n    ret|urn 1\n", "return"},
		{"start of def", "|def f(): pass\n", "def"},
		{"just past None", "x = None|\n", "None"},
		{"True", "x = Tr|ue", "True"},
		{"lambda", "f = |lambda: 0", "lambda"},
		{"identifier", "def fo|o(): pass", ""},
		{"identifier containing a keyword", "return_|value = 1", ""},
		{"in a comment", "x = 1  # ret|urn here\n", ""},
		{"in a string", "x = 'ret|urn'\n", ""},
		{"in an f-string", "x = f\"{a} ret|urn\"\n", ""},
		{"in a raw string with an escaped quote", "x = r\"\\\" ret|urn\"\n", ""},
		{"in a triple-quoted string", "x = '''\nnot\nret|urn\n'''\n", ""},
		{"after a triple-quoted string", "x = '''\n'it' \"\"\n'''\nret|urn\n", "return"},
		{"after a comment with a quote", "# don't\nre|turn\n", "return"},
		{"prefix word not before a quote", "rb = 1\nif| rb: pass", "if"},
		{"blank line", "x = 1\n|\n", ""},
		{"punctuation", "f(|)", ""},
		{"number", "x = 1e|5", ""},
		{"soft keyword", "mat|ch x:\n    case 1: pass\n", "match"},
		{"past the end", "pass|", "pass"},
		{"between two words", "not|x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := strings.Index(tt.src, "|")
			src := []byte(strings.Replace(tt.src, "|", "", 1))
			got, ok := KeywordAt(src, off)
			if ok != (tt.want != "") || got != tt.want {
				t.Fatalf("KeywordAt = %q %v, want %q", got, ok, tt.want)
			}
		})
	}
}

func TestKeywords(t *testing.T) {
	for _, k := range []string{"None", "lambda", "return", "await"} {
		if !IsKeyword(k) {
			t.Errorf("%s is not a keyword", k)
		}
	}
	for _, k := range []string{"match", "print", "self", "_"} {
		if IsKeyword(k) {
			t.Errorf("%s is a keyword", k)
		}
	}
	if !IsSoftKeyword("match") || IsSoftKeyword("None") {
		t.Error("soft keywords")
	}
}

func TestInCode(t *testing.T) {
	cases := []struct {
		src  string // | marks the offset
		want bool
	}{
		{"x = a|", true},
		{"x = 'a|'", false},
		{"x = 'a'|", true},
		{"x = 'a|", false},
		{"x = \"\"\"a\nb|\"\"\"", false},
		{"x = f'{a|}'", false},
		{"x = rb'a|'", false},
		{"# a|\nx", false},
		{"# a\nx|", true},
		{"x = 'a\\'|'", false},
		{"'|", false},
	}
	for _, c := range cases {
		off := strings.IndexByte(c.src, '|')
		src := c.src[:off] + c.src[off+1:]
		if got := InCode([]byte(src), off); got != c.want {
			t.Errorf("InCode(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
