package service

import (
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestFactsKey(t *testing.T) {
	f := &sourceFile{text: []byte("def f(x): pass\n")}
	cf := abi.DiagnosticsContextFile{Module: "app.helpers"}
	base := factsKey(f, cf, "3.12", "sha-a")
	for name, k := range map[string][32]byte{
		"source":  factsKey(&sourceFile{text: []byte("def f(x, y): pass\n")}, cf, "3.12", "sha-a"),
		"module":  factsKey(f, abi.DiagnosticsContextFile{Module: "app.other"}, "3.12", "sha-a"),
		"init":    factsKey(f, abi.DiagnosticsContextFile{Module: "app.helpers", IsPackageInit: true}, "3.12", "sha-a"),
		"version": factsKey(f, cf, "3.8", "sha-a"),
		"plugin":  factsKey(f, cf, "3.12", "sha-b"),
	} {
		if k == base {
			t.Errorf("a different %s gives the same facts key", name)
		}
	}
	if factsKey(f, cf, "3.12", "sha-a") != base {
		t.Error("the key is not deterministic")
	}
}

// TestBoundedCache: oldest first out, by bytes (facts) or by count
// (answers); a value larger than the byte bound is not kept.
func TestBoundedCache(t *testing.T) {
	key := func(i int) [32]byte { return [32]byte{byte(i)} }
	value := []byte(`{"x":"` + strings.Repeat("a", 30) + `"}`) // 38 bytes
	for _, c := range []struct {
		name  string
		cache *boundedCache
		kept  []int // of the keys 0-4, then 9 with a 101-byte value
	}{
		{"by bytes", &boundedCache{maxBytes: 100, m: map[[32]byte][]byte{}}, []int{3, 4}},
		{"by count", &boundedCache{maxEntries: 2, m: map[[32]byte][]byte{}}, []int{4, 9}},
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

// TestKeepContextFacts: only facts for modules that were sent as files,
// well-formed and bounded, are kept.
func TestKeepContextFacts(t *testing.T) {
	contextFacts := newFactsCache()
	sent := sentContext{keys: map[string][32]byte{"a": {1}, "b": {2}, "c": {3}, "d": {4}}}
	sent.keep(contextFacts, []abi.ContextFacts{
		{Module: "a", Facts: json.RawMessage(`{"sigs":{}}`)},
		{Module: "b", Facts: json.RawMessage(`[1,2]`)},                                                          // not an object
		{Module: "c", Facts: json.RawMessage(`{"x":` + strings.Repeat(" ", pluginresult.MaxFactsBytes) + `1}`)}, // too large
		{Module: "zzz", Facts: json.RawMessage(`{}`)},                                                           // not sent
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if v, ok := contextFacts.get([32]byte{1}); !ok || string(v) != `{"sigs":{}}` {
		t.Errorf("facts of a sent module not kept: %q %v", v, ok)
	}
	for _, k := range [][32]byte{{2}, {3}, {4}} {
		if _, ok := contextFacts.get(k); ok {
			t.Errorf("unusable facts kept under %v", k[0])
		}
	}
	if len(contextFacts.m) != 1 {
		t.Errorf("%d entries kept, want 1", len(contextFacts.m))
	}
}
