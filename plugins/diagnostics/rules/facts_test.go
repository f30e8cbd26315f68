package rules

import (
	"encoding/json"
	"reflect"
	"testing"
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
