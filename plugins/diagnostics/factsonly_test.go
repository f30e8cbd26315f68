package main

import (
	"encoding/json"
	"reflect"
	"testing"

	sdk "github.com/pyws/pyws/plugin-sdk"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/parsertest"
)

// TestFactsOnly: a facts-only call answers the facts a checking call
// derives from the same context modules, checks nothing (its first file
// too is a context module), and marks a module that does not parse
// broken as the checking call does.
func TestFactsOnly(t *testing.T) {
	helpers := abi.File{URI: "file:///ws/app/helpers.py", Path: "app/helpers.py",
		Source: []byte("import os\n\n\ndef scale(value: float, factor: float = 2.0) -> float:\n    return value\n")}
	shapes := abi.File{URI: "file:///ws/app/shapes.py", Path: "app/shapes.py", Source: []byte("class Box:\n    def __init__(self, size: int):\n        pass\n")}
	broken := abi.File{URI: "file:///ws/app/broken.py", Path: "app/broken.py", Source: []byte("def (:\n")}
	user := abi.File{URI: "file:///ws/app/user.py", Path: "app/user.py", Source: []byte("from app.helpers import scale\n\nscale()\n")}
	context := []abi.DiagnosticsContextFile{{Path: "app/helpers.py", Module: "app.helpers"}, {Path: "app/shapes.py", Module: "app.shapes"},
		{Path: "app/broken.py", Module: "app.broken"}}
	call := func(pyws abi.DiagnosticsContext, files ...abi.File) result { return callDiagnostics(t, pyws, files...) }
	base := abi.DiagnosticsContext{Config: map[string]any{}, PythonVersion: "3.11", Installed: []string{}, Imports: map[string]int{}, Context: context}
	checking := base
	checking.Module = "app.user"
	full := call(checking, user, helpers, shapes, broken)
	if len(full.Diagnostics) == 0 {
		t.Fatal("the checking call found nothing in app/user.py")
	}
	only := base
	only.FactsOnly = true
	got := call(only, helpers, shapes, broken)
	if len(got.Diagnostics) != 0 {
		t.Errorf("a facts-only call checked its files: %+v", got.Diagnostics)
	}
	if len(got.ContextFacts) != 3 || !reflect.DeepEqual(got.ContextFacts, full.ContextFacts) {
		t.Errorf("facts-only: %s\nchecking call: %s", factsText(got.ContextFacts), factsText(full.ContextFacts))
	}
}

// callDiagnostics runs get_diagnostics on files (the first is checked)
// as the guest would, trees added.
func callDiagnostics(t *testing.T, pyws abi.DiagnosticsContext, files ...abi.File) result {
	t.Helper()
	for i := range files {
		files[i].Tree = mustBlob(t, files[i].Source)
	}
	args, _ := json.Marshal(map[string]any{"uri": files[0].URI, "pyws": pyws})
	msg, err := abi.EncodeRequest(&abi.Request{Tool: "get_diagnostics", Arguments: args, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := abi.DecodeResponse(sdk.HandleMessage(handle, msg))
	if err != nil || resp.Error != nil {
		t.Fatalf("%v %+v", err, resp.Error)
	}
	var r result
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestKeptFactsFollowTheirBytes: the facts an instance keeps decoded
// (decodedFacts) are those of the bytes each call sends, a module's
// changed facts replacing its earlier ones and its first ones coming back.
func TestKeptFactsFollowTheirBytes(t *testing.T) {
	user := abi.File{URI: "file:///ws/app/user.py", Path: "app/user.py", Source: []byte("from app.helpers import scale\n\nscale()\n")}
	base := abi.DiagnosticsContext{Config: map[string]any{}, PythonVersion: "3.11", Installed: []string{}, Imports: map[string]int{}}
	factsOf := func(src string) abi.ContextFacts {
		only := base
		only.FactsOnly = true
		only.Context = []abi.DiagnosticsContextFile{{Path: "app/helpers.py", Module: "app.helpers"}}
		r := callDiagnostics(t, only, abi.File{URI: "file:///ws/app/helpers.py", Path: "app/helpers.py", Source: []byte(src)})
		if len(r.ContextFacts) != 1 {
			t.Fatalf("facts of %q: %s", src, factsText(r.ContextFacts))
		}
		return r.ContextFacts[0]
	}
	required := factsOf("def scale(value: float) -> float:\n    return value\n")
	optional := factsOf("def scale(value: float = 1.0) -> float:\n    return value\n")
	for i, c := range []struct {
		facts   abi.ContextFacts
		missing bool
	}{{required, true}, {optional, false}, {required, true}, {optional, false}} {
		checking := base
		checking.Module = "app.user"
		checking.Facts = []abi.ContextFacts{c.facts}
		missing := false
		for _, d := range callDiagnostics(t, checking, user).Diagnostics {
			missing = missing || d.Code == "missing-argument"
		}
		if missing != c.missing {
			t.Errorf("call %d: missing-argument reported %v, want %v", i, missing, c.missing)
		}
	}
}

func mustBlob(t *testing.T, src []byte) []byte {
	b, err := parsertest.Blob(src)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func factsText(fs []abi.ContextFacts) string {
	b, _ := json.Marshal(fs)
	return string(b)
}
