package plugins

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// testEngine runs one built test plugin in this process, unguarded.
func testEngine(t testing.TB, name string, opt engineOptions, edit func(*guestSpec)) *engine {
	t.Helper()
	dir := filepath.Join(builtPlugins(t), name)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	pages := uint32(orDefault(m.MemoryLimitMiB, 256)) * (1 << 20 / pageSize)
	spec := guestSpec{Name: m.Name, Path: filepath.Join(dir, ModuleFile), SHA256: m.SHA256, MemoryLimitPages: pages, HighWaterPages: pages / 2}
	if edit != nil {
		edit(&spec)
	}
	if opt.cache == nil {
		cache, err := wazero.NewCompilationCacheWithDir(testCacheDir())
		if err != nil {
			t.Fatal(err)
		}
		opt.cache = cache
	}
	e, err := newEngine(context.Background(), testLogger(t), []guestSpec{spec}, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.close(context.Background()) })
	return e
}

func encode(t testing.TB, r *abi.Request) []byte {
	t.Helper()
	b, err := abi.EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGuestMemoryBounded calls a plugin that makes 1 MiB of garbage per
// call 2,000 times with recycling off: memory stays flat only because the
// SDK yields at the end of every export, letting the reactor's GC run;
// and again calling pyws_idle after each call, as a worker does once the
// answer is sent, where the SDK then collects instead of in the next call.
func TestGuestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 guest calls")
	}
	for _, idle := range []bool{false, true} {
		t.Run(fmt.Sprintf("idle=%v", idle), func(t *testing.T) {
			e := testEngine(t, "echo", engineOptions{}, func(s *guestSpec) { s.HighWaterPages = s.MemoryLimitPages })
			msg := encode(t, &abi.Request{Tool: "echo", Arguments: json.RawMessage(`{"garbage":1048576}`)})
			ctx := context.Background()
			var peak uint32
			for i := range 2000 {
				resp, ce := e.call(ctx, 0, msg, 0)
				if ce != nil {
					t.Fatalf("call %d: %v", i, ce.fault)
				}
				if !strings.Contains(string(resp), `"garbage":1048576`) {
					t.Fatalf("call %d: %s", i, resp)
				}
				if idle {
					if e.guests[0].inst.idle == nil {
						t.Fatal("the SDK's guest does not export " + abi.ExportIdle)
					}
					e.idle(ctx, 0)
					if e.guests[0].inst == nil {
						t.Fatalf("after call %d: the instance was discarded in %s", i, abi.ExportIdle)
					}
				}
				peak = max(peak, e.guests[0].inst.mod.Memory().Size())
			}
			t.Logf("guest memory after 2,000 calls (2 GiB of garbage): %d MiB", peak>>20)
			if peak > 64<<20 {
				t.Errorf("guest memory grew to %d MiB", peak>>20)
			}
		})
	}
}

func TestHighWaterRecycles(t *testing.T) {
	e := testEngine(t, "echo", engineOptions{}, func(s *guestSpec) { s.HighWaterPages = 1 })
	msg := encode(t, &abi.Request{Tool: "echo"})
	for i := range 3 {
		if _, ce := e.call(context.Background(), 0, msg, 0); ce != nil {
			t.Fatalf("call %d: %v", i, ce.fault)
		}
		if e.guests[0].inst != nil {
			t.Fatalf("call %d: instance above the high-water mark was kept", i)
		}
	}
}
