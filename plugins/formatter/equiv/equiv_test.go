package equiv

import (
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

func parse(tb testing.TB, src string) *tree.Tree {
	tb.Helper()
	t := parsertest.Tree(tb, []byte(src))
	if t.Root().HasError() {
		tb.Fatalf("test source does not parse: %q", src)
	}
	return t
}

func TestSignature(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		same bool
	}{
		{"whitespace and blank lines", "x=1\ny = [1,2]\n", "x = 1\n\n\ny = [1, 2]\n", true},
		{"comments", "x = 1  #c\n# standalone\n", "x = 1  # c\n", true},
		{"redundant parens", "return_ = (1)\nfor (x) in y:\n    pass\nif (a):\n    del (b)\n", "return_ = 1\nfor x in y:\n    pass\nif a:\n    del b\n", true},
		{"tuple spellings", "def f():\n    return 1, 2\nfor (a, b) in c:\n    pass\n(d, e) = f\n", "def f():\n    return (1, 2)\nfor a, b in c:\n    pass\nd, e = f\n", true},
		{"magic trailing comma", "f(a, b,)\nx = [1, 2,]\n", "f(\n    a,\n    b\n)\nx = [1, 2]\n", true},
		{"quotes and prefixes", "a = 'it\\'s'\nb = U'x'\nc = B\"y\"\nd = '''z'''\n", "a = \"it's\"\nb = 'x'\nc = b'y'\nd = \"\"\"z\"\"\"\n", true},
		{"docstring whitespace", "def f():\n    '''  Doc.\n\n      more   '''\n", "def f():\n    \"\"\"Doc.\n\n    more\"\"\"\n", true},
		{"numbers", "x = 0XABCDEF + 1E5 + 10J\n", "x = 0xabcdef + 1e5 + 10j\n", true},
		{"float spellings", "x = .5 + 1. + 2.e3 + 3.j\n", "x = 0.5 + 1.0 + 2.0e3 + 3.0j\n", true},
		{"prefix order", "x = br'a' + Rb'b'\n", "x = rb'a' + bR'b'\n", true},
		{"float value changed", "x = 1.5\n", "x = 15\n", false},
		{"empty class parens", "class A():\n    pass\n", "class A:\n    pass\n", true},
		{"semicolons", "a = 1; b = 2;\n", "a = 1\nb = 2\n", true},
		{"backslash", "x = 1 + \\\n    2\n", "x = 1 + 2\n", true},
		{"import order and merging", "import sys\nimport os\nfrom a import c\nfrom a import b\nimport os\n", "import os\nimport sys\n\nfrom a import b, c\n", true},
		{"import a, b split", "import a, b as c\n", "import a\nimport b as c\n", true},
		{"relative import parens", "from . import (x)\n", "from . import x\n", true},

		{"identifier changed", "x = 1\n", "y = 1\n", false},
		{"value changed", "x = 1\n", "x = 2\n", false},
		{"string content changed", "x = 'a b'\n", "x = 'a  b'\n", false},
		{"non-docstring whitespace", "x = '''a\n  b'''\n", "x = '''a\nb'''\n", false},
		{"precedence", "x = (a + b) * c\n", "x = a + b * c\n", false},
		{"tuple vs value", "x = (1,)\n", "x = (1)\n", false},
		{"one-element subscript comma", "x[a,]\n", "x[a]\n", false},
		{"indentation moves a statement", "if a:\n    b()\n    c()\n", "if a:\n    b()\nc()\n", false},
		{"import dropped", "import os\nimport sys\n", "import os\n", false},
		{"import moved past code", "import os\nx = 1\nimport sys\n", "import os\nimport sys\nx = 1\n", false},
		{"raw string escapes", "x = r'\\''\n", "x = r\"'\"\n", false},
		{"empty tuple argument", "f(())\n", "f()\n", false},
		{"operator changed", "x = a is not b\n", "x = a is b\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ta, tb := parse(t, c.a), parse(t, c.b)
			sa, sb := Signature(ta), Signature(tb)
			if (sa == sb) != c.same {
				t.Fatalf("same=%v, want %v\n--- a\n%s--- b\n%s", sa == sb, c.same, Canonical(ta), Canonical(tb))
			}
			if (Canonical(ta) == Canonical(tb)) != (sa.Hash == sb.Hash) {
				t.Fatal("hash and canonical form disagree")
			}
		})
	}
}
