package rules

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

func TestContextModuleFacts(t *testing.T) {
	src := []byte(`from typing_extensions import deprecated
from os import path


def scale(value: float, /, factor: float = 2.0, *args: int, flag: bool = False, **kw) -> float:
    return value * factor


@deprecated("use scale")
def old(value):
    return value


class Point:
    def __init__(self, x: int, y: int = 0) -> None:
        self.x, self.y = x, y


def twice():
    pass


def twice():
    pass


@some_decorator
def wrapped(a):
    pass
`)
	f := ContextModuleFacts(ContextFile{Path: "helpers.py", ModuleName: "app.helpers", Tree: parse(t, src)}, 12)
	if f.Broken {
		t.Fatal("a valid module is broken")
	}
	var names []string
	for n := range f.Sigs {
		names = append(names, n)
	}
	// twice is bound twice, wrapped has an unknown decorator, path is an
	// import: none is certain.
	for _, n := range []string{"scale", "old", "Point"} {
		if _, ok := f.Sigs[n]; !ok {
			t.Errorf("no signature for %s (have %v)", n, names)
		}
	}
	for _, n := range []string{"twice", "wrapped", "path"} {
		if _, ok := f.Sigs[n]; ok {
			t.Errorf("a signature for %s, which is not certain", n)
		}
	}
	scale := f.Sigs["scale"]
	wantKinds := []paramKind{posOnly, posOrKw, varPos, kwOnly, varKw}
	if len(scale.Params) != len(wantKinds) {
		t.Fatalf("scale: %d params", len(scale.Params))
	}
	for i, k := range wantKinds {
		if scale.Params[i].Kind != k {
			t.Errorf("scale param %d (%s): kind %d, want %d", i, scale.Params[i].Name, scale.Params[i].Kind, k)
		}
	}
	if !scale.Params[1].HasDefault || scale.Params[0].HasDefault || scale.Params[0].Typ == 0 {
		t.Errorf("scale params: %+v", scale.Params)
	}
	if p := f.Sigs["Point"]; p.Name != "Point" || len(p.Params) != 2 || p.Params[0].Name != "x" {
		t.Errorf("Point's signature is its __init__ without self: %+v", p)
	}
	if msg, ok := f.Deprecated["old"]; !ok || msg != "use scale" {
		t.Errorf("deprecated: %v", f.Deprecated)
	}

	// The JSON form is deterministic (the kernel keys and caches by the
	// module, and the answer cache by everything sent) and round-trips.
	a, _ := json.Marshal(f)
	b, _ := json.Marshal(ContextModuleFacts(ContextFile{Path: "helpers.py", ModuleName: "app.helpers", Tree: parse(t, src)}, 12))
	if string(a) != string(b) {
		t.Error("two analyses of one module marshal differently")
	}
	back, err := DecodeModuleFacts(a)
	if err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, back, f)
	}

	if !ContextModuleFacts(ContextFile{Path: "bad.py", Tree: parse(t, []byte("def (:\n"))}, 12).Broken {
		t.Error("a module with syntax errors must be Broken")
	}
	if !ContextModuleFacts(ContextFile{Path: "none.py"}, 12).Broken {
		t.Error("a module without a tree must be Broken")
	}
}

// TestContextFactsWithoutBodies: the facts of a model without function
// bodies are those of the whole model, on the cases a body could change
// (a global statement binding a module name, a method's body) and on
// Django's modules (PYWS_FACTS_ALL=1: all 859; else 150 of them, for
// CI's time).
func TestContextFactsWithoutBodies(t *testing.T) {
	files := map[string][]byte{
		"global.py": []byte("def f(a):\n    pass\n\ndef rebind():\n    global f\n    f = None\n"),
		"methods.py": []byte("class C:\n    def __init__(self, a: int):\n        self.a = a\n        def inner(b):\n            global D\n" +
			"\nclass D:\n    def __init__(self, x):\n        pass\n"),
		"nested.py": []byte("def outer(x: int = 1):\n    class Inner:\n        def __init__(self, y):\n            pass\n    return Inner\n"),
	}
	n := 150
	if os.Getenv("PYWS_FACTS_ALL") != "" {
		n = 1 << 20
	}
	if _, err := os.Stat(parsertest.DjangoRoot); err == nil {
		paths, srcs := parsertest.DjangoSample(t, n)
		for i, p := range paths {
			files[p] = srcs[i]
		}
	}
	for path, src := range files {
		cf := ContextFile{Path: path, ModuleName: "m", IsPackageInit: strings.HasSuffix(path, "__init__.py"), Tree: parse(t, src)}
		whole, _ := json.Marshal(contextModuleFacts(cf, 11, false))
		outline, _ := json.Marshal(contextModuleFacts(cf, 11, true))
		if string(whole) != string(outline) {
			t.Errorf("%s: facts without bodies differ:\n%s\nwhole model:\n%s", path, outline, whole)
		}
	}
}
