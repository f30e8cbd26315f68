package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

func TestCallEcho(t *testing.T) {
	r := startRuntime(t, 1, "echo")
	tests := []struct {
		name     string
		tool     string
		req      abi.Request
		wantCode string
		want     []string // substrings of the result
	}{
		{"files", "echo", abi.Request{Arguments: json.RawMessage(`{}`), Files: []abi.File{{URI: "file:///w/a.py", Path: "a.py", Source: []byte("x = 1\n")}}},
			"", []string{`"sourceLen":6`, `"path":"a.py"`, `"treeNodes":0`}},
		{"no files", "echo", abi.Request{}, "", []string{`"files":[]`}},
		{"tool error passes through", "echo", abi.Request{Arguments: json.RawMessage(`{"fail":"NO_SYMBOL_FOUND"}`)}, fault.NoSymbolFound, nil},
		{"code outside the catalogue", "echo", abi.Request{Arguments: json.RawMessage(`{"fail":"MADE_UP"}`)}, fault.ServerUnavailable, nil},
		{"bad arguments", "echo", abi.Request{Arguments: json.RawMessage(`{"nope":1}`)}, fault.InvalidParameter, nil},
		{"unknown tool", "nosuch", abi.Request{}, fault.ServerUnavailable, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := r.Call(ctx, tt.tool, &tt.req)
			if tt.wantCode != "" {
				if fault.CodeOf(err) != tt.wantCode {
					t.Fatalf("err = %v, want code %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(res), w) {
					t.Errorf("result %s lacks %s", res, w)
				}
			}
		})
	}
	if got := r.Tools(); len(got) != 1 || got[0] != "echo" {
		t.Errorf("Tools() = %v", got)
	}
}

func TestTreesForPluginsThatNeedThem(t *testing.T) {
	dir := clonePlugin(t, "echo", func(m *Manifest) { m.Needs = []string{NeedTree} })
	r := startRuntimeDirs(t, Config{Dirs: []string{dir}, Workers: 1})
	src := []byte("def f(x):\n    return x + 1\n")
	res, err := r.Call(context.Background(), "echo", &abi.Request{Files: []abi.File{
		{URI: "file:///w/a.py", Path: "a.py", Source: src},
		{URI: "file:///w/b.py", Path: "b.py"}, // no source: nothing to parse
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Files []struct {
			TreeNodes int    `json:"treeNodes"`
			RootKind  string `json:"rootKind"`
		} `json:"files"`
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != 2 || got.Files[0].RootKind != "module" || got.Files[0].TreeNodes < 10 || got.Files[1].TreeNodes != 0 {
		t.Fatalf("result %s: want a module tree for a.py and none for b.py", res)
	}
}

// TestParseBudgetIsParseError: a source that cannot be parsed within the
// call's deadline is PARSE_ERROR naming the file, and the worker serves the
// next call.
func TestParseBudgetIsParseError(t *testing.T) {
	// The worker's answer must beat the kill by the runtime's margin. A
	// loaded machine (or a -race worker) needs seconds to stop a parse of
	// a 12 MiB call and answer, so the test leaves it most of the budget:
	// the soft budget is one second (1.5 s under -race), which parsing
	// 12 MiB (20 MiB) in wasm outlasts on any machine (2 MB/s here).
	timeoutMs, margin, size := 6000, 5*time.Second, 12<<20
	if raceBuild {
		timeoutMs, margin, size = 10000, 8500*time.Millisecond, 20<<20
	}
	dir := clonePlugin(t, "echo", func(m *Manifest) { m.Needs = []string{NeedTree}; m.TimeoutMs = timeoutMs })
	r := startRuntimeDirs(t, Config{Dirs: []string{dir}, Workers: 1, AnswerMargin: margin})
	var big bytes.Buffer
	for big.Len() < size {
		big.WriteString("x = [f(a, b) for a in range(10) if a % 2 == 0 or g(a)]\n")
	}
	_, err := r.Call(context.Background(), "echo", &abi.Request{Files: []abi.File{{URI: "file:///w/big.py", Path: "big.py", Source: big.Bytes()}}})
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.ParseError || fe.Details["file"] != "file:///w/big.py" {
		t.Fatalf("err = %v, want PARSE_ERROR naming big.py", err)
	}
	if _, err := r.Call(context.Background(), "echo", &abi.Request{Files: []abi.File{{URI: "file:///w/a.py", Path: "a.py", Source: []byte("x = 1\n")}}}); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

// A worker loads a plugin at its first call; a worker started after a
// plugin was called loads it before it says ready.
func TestWorkersLoadPluginsInUse(t *testing.T) {
	r := startRuntime(t, 1, "echo", "loop")
	warm := func() []int {
		var init workerInit
		b, _ := r.initFrame()
		if err := json.Unmarshal(b, &init); err != nil {
			t.Fatal(err)
		}
		return init.Warm
	}
	if got := warm(); len(got) != 0 {
		t.Fatalf("warm before any call = %v, want none", got)
	}
	if _, err := r.Call(context.Background(), "echo", &abi.Request{}); err != nil {
		t.Fatal(err)
	}
	if got := warm(); len(got) != 1 || got[0] != r.tools["echo"].index {
		t.Fatalf("warm after an echo call = %v, want [%d]", got, r.tools["echo"].index)
	}
	w, err := r.startWorker(context.Background())
	if err != nil {
		t.Fatalf("a worker warming echo: %v", err)
	}
	w.retire()

	// Config.Warm: the tools the caller calls at once are loaded from the
	// start.
	r = startRuntimeDirs(t, Config{Dirs: []string{builtPluginDir(t, "echo"), builtPluginDir(t, "loop")}, Workers: 1, Warm: []string{"loop", "nosuchtool"}})
	if got := warm(); len(got) != 1 || got[0] != r.tools["loop"].index {
		t.Fatalf("warm with Config.Warm [loop] = %v, want [%d]", got, r.tools["loop"].index)
	}
}

// A plugin's first call has the other idle workers load it meanwhile, so
// their first calls of it do not; the plugin's other worker serves calls
// afterwards as before.
func TestFirstCallLoadsPluginElsewhere(t *testing.T) {
	r := startRuntime(t, 2, "echo", "loop")
	echo, loop := r.tools["echo"].index, r.tools["loop"].index
	if _, err := r.Call(context.Background(), "echo", &abi.Request{}); err != nil {
		t.Fatal(err)
	}
	loadedEverywhere := func() bool {
		r.pool.mu.Lock()
		defer r.pool.mu.Unlock()
		if len(r.pool.idle) != 2 { // one may be away loading
			return false
		}
		for _, w := range r.pool.idle {
			if !w.loaded[echo].Load() || w.loaded[loop].Load() {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(time.Minute)
	for !loadedEverywhere() {
		if time.Now().After(deadline) {
			t.Fatal("the idle worker did not load echo after its first call (or loaded loop, never called)")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.Call(context.Background(), "echo", &abi.Request{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if st := r.Stats(); st.Restarts != 0 {
		t.Errorf("restarts = %d, want 0", st.Restarts)
	}
}
