package pycomplete

import (
	"reflect"
	"strings"
	"testing"
)

func TestAt(t *testing.T) {
	cases := []struct {
		src  string // ‸ marks the offset
		want Context
	}{
		{"x = resp.‸", Context{What: Attribute, Receiver: []string{"resp"}, DotOffset: 8, PrefixStart: 9}},
		{"x = self.session.ge‸", Context{What: Attribute, Prefix: "ge", Receiver: []string{"self", "session"}, DotOffset: 16, PrefixStart: 17}},
		{"f(a, b).x[0].‸", Context{What: Attribute, Receiver: []string{"f()", "x[]"}, DotOffset: 12, PrefixStart: 13}},
		{"'abc'.up‸", Context{What: Attribute, Prefix: "up", Receiver: []string{`""`}, DotOffset: 5, PrefixStart: 6}},
		{"x = 1.‸", Context{}},
		{"x = 'a.‸'", Context{}},
		{"x = 1  # a.‸", Context{}},
		{"def fo‸", Context{}},
		{"class Fo‸", Context{}},
		{"import os as o‸", Context{}},
		{"if x:\n    re‸", Context{What: Name, Prefix: "re", PrefixStart: 10, StatementStart: true}},
		{"y = (1,\n    re‸", Context{What: Name, Prefix: "re", PrefixStart: 12}},
		{"x = a + b‸", Context{What: Name, Prefix: "b", PrefixStart: 8}},
		{"import o‸", Context{What: ImportModule, Prefix: "o", PrefixStart: 7}},
		{"import os.p‸", Context{What: ImportModule, Prefix: "p", PrefixStart: 10, Module: "os"}},
		{"from ..pkg.‸", Context{What: ImportModule, PrefixStart: 11, Module: "pkg", Level: 2}},
		{"from os.path import (jo‸", Context{What: ImportMember, Prefix: "jo", PrefixStart: 21, Module: "os.path"}},
		{"from . import a, b‸", Context{What: ImportMember, Prefix: "b", PrefixStart: 17, Level: 1}},
	}
	for _, c := range cases {
		off := strings.Index(c.src, "‸")
		src := strings.Replace(c.src, "‸", "", 1)
		if got := At([]byte(src), off); !reflect.DeepEqual(got, c.want) {
			t.Errorf("At(%q) = %+v, want %+v", c.src, got, c.want)
		}
	}
}

func TestEnclosingBlocks(t *testing.T) {
	src := "class A:\n    def f(self):\n        x = (1,\n2)\n        '''doc\nstill'''\n\n        y\n    z\n"
	cases := []struct {
		line, col int
		want      []int
	}{
		{7, 8, []int{1, 0}}, // y, inside f, past a bracket and a string at column 0
		{8, 4, []int{0}},    // z, in the class body
		{6, 4, []int{0}},    // a blank line typed at column 4
		{6, 0, nil},
	}
	for _, c := range cases {
		if got := EnclosingBlocks([]byte(src), c.line, c.col); !reflect.DeepEqual(got, c.want) {
			t.Errorf("EnclosingBlocks(%d, %d) = %v, want %v", c.line, c.col, got, c.want)
		}
	}
}

// FuzzAt: any bytes and offset, no panic.
func FuzzAt(f *testing.F) {
	f.Add([]byte("x = resp.\n"), 9)
	f.Add([]byte("from . import (a,\n b"), 20)
	f.Add([]byte("'''\n"), 3)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		At(src, off)
		if at := ImportLine(src); at < 0 || at > len(src) {
			t.Fatalf("ImportLine %d outside %d bytes", at, len(src))
		}
		if off >= 0 {
			EnclosingBlocks(src, off%100, off%40)
		}
	})
}

func TestImportLine(t *testing.T) {
	cases := []struct{ src, want string }{ // want: the text from the offset on
		{"import os\nimport sys\n", "import os\nimport sys\n"},
		{"\"\"\"Doc.\n\nMore.\"\"\"\n\nimport os\n", "import os\n"},
		{"#!/usr/bin/env python\n\"\"\"Doc.\"\"\"\nx = 1\n", "x = 1\n"},
		{"# header\n\nx = 1\n", "x = 1\n"},
		{"x = 1\nimport os\n", "import os\n"},
		{"", ""},
	}
	for _, c := range cases {
		if got := c.src[ImportLine([]byte(c.src)):]; got != c.want {
			t.Errorf("ImportLine(%q): from %q, want %q", c.src, got, c.want)
		}
	}
}
