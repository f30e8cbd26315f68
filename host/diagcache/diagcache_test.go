package diagcache

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestFactsKey(t *testing.T) {
	text := []byte("def f(x): pass\n")
	cf := abi.DiagnosticsContextFile{Module: "app.helpers"}
	base := factsKey(text, cf, "3.12", "sha-a")
	for name, k := range map[string]Key{
		"source":  factsKey([]byte("def f(x, y): pass\n"), cf, "3.12", "sha-a"),
		"module":  factsKey(text, abi.DiagnosticsContextFile{Module: "app.other"}, "3.12", "sha-a"),
		"init":    factsKey(text, abi.DiagnosticsContextFile{Module: "app.helpers", IsPackageInit: true}, "3.12", "sha-a"),
		"version": factsKey(text, cf, "3.8", "sha-a"),
		"plugin":  factsKey(text, cf, "3.12", "sha-b"),
	} {
		if k == base {
			t.Errorf("a different %s gives the same facts key", name)
		}
	}
	if factsKey(text, cf, "3.12", "sha-a") != base {
		t.Error("the key is not deterministic")
	}
}

func TestAnswerKey(t *testing.T) {
	files := []Source{{Path: "a.py", Text: []byte("x")}, {Path: "b.py", Text: []byte("y")}}
	args := []byte(`{"uri":"a.py"}`)
	base := AnswerKey("get_diagnostics", args, files)
	for name, k := range map[string]Key{
		"tool":      AnswerKey("get_code_actions", args, files),
		"arguments": AnswerKey("get_diagnostics", []byte(`{"uri":"b.py"}`), files),
		"text":      AnswerKey("get_diagnostics", args, []Source{files[0], {Path: "b.py", Text: []byte("z")}}),
		"path":      AnswerKey("get_diagnostics", args, []Source{files[0], {Path: "c.py", Text: []byte("y")}}),
		"files":     AnswerKey("get_diagnostics", args, files[:1]),
	} {
		if k == base {
			t.Errorf("a different %s gives the same answer key", name)
		}
	}
	if AnswerKey("get_diagnostics", args, files) != base {
		t.Error("the key is not deterministic")
	}
}

// TestBounded: oldest first out, by bytes (facts) or by count (answers);
// a value larger than the byte bound is not kept.
func TestBounded(t *testing.T) {
	key := func(i int) Key { return Key{byte(i)} }
	value := []byte(`{"x":"` + strings.Repeat("a", 30) + `"}`) // 38 bytes
	for _, c := range []struct {
		name  string
		cache *bounded
		kept  []int // of the keys 0-4, then 9 with a 101-byte value
	}{
		{"by bytes", newBounded(0, 100), []int{3, 4}},
		{"by count", newBounded(2, 0), []int{4, 9}},
	} {
		for i := range 5 {
			c.cache.put(key(i), value)
		}
		c.cache.put(key(9), make([]byte, 101))
		var kept []int
		for _, i := range []int{0, 1, 2, 3, 4, 9} {
			if _, ok := c.cache.get(key(i)); ok {
				kept = append(kept, i)
			}
		}
		if !reflect.DeepEqual(kept, c.kept) || len(c.cache.order) != len(c.kept) {
			t.Errorf("%s: kept %v, want %v", c.name, kept, c.kept)
		}
	}
}

// TestFactsTravelOnce: the modules whose facts are kept go as facts, the
// others as files; only usable facts about modules sent as files are kept.
func TestFactsTravelOnce(t *testing.T) {
	c := New()
	context := func() *abi.DiagnosticsContext {
		return &abi.DiagnosticsContext{PythonVersion: "3.12", Context: []abi.DiagnosticsContextFile{
			{Path: "a.py", Module: "a"}, {Path: "b.py", Module: "b"}, {Path: "c.py", Module: "c"}}}
	}
	texts := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	dc := context()
	p := c.UseFacts(dc, texts, "sha")
	if !reflect.DeepEqual(p.Sent, []int{0, 1, 2}) || len(dc.Facts) != 0 {
		t.Fatalf("nothing kept yet: sent %v, facts %v", p.Sent, dc.Facts)
	}
	refused := c.KeepFacts(p, []abi.ContextFacts{
		{Module: "a", Facts: json.RawMessage(`{"sigs":{}}`)},
		{Module: "b", Facts: json.RawMessage(`[1,2]`)},                                                          // not an object
		{Module: "c", Facts: json.RawMessage(`{"x":` + strings.Repeat(" ", pluginresult.MaxFactsBytes) + `1}`)}, // too large
		{Module: "zzz", Facts: json.RawMessage(`{}`)},                                                           // not sent
	})
	if len(refused) != 3 {
		t.Errorf("refused %d facts, want 3", len(refused))
	}
	if _, facts := c.Len(); facts != 1 {
		t.Errorf("%d modules' facts kept, want 1", facts)
	}
	dc = context()
	p = c.UseFacts(dc, texts, "sha")
	if !reflect.DeepEqual(p.Sent, []int{1, 2}) || len(dc.Context) != 2 || len(dc.Facts) != 1 || string(dc.Facts[0].Facts) != `{"sigs":{}}` {
		t.Fatalf("a's facts travel instead of its file: sent %v, context %v, facts %v", p.Sent, dc.Context, dc.Facts)
	}
	if p = c.UseFacts(context(), texts, "another build"); len(p.Sent) != 3 {
		t.Fatalf("facts of another plugin build are used: sent %v", p.Sent)
	}
}
