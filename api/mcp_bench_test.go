package api

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The same tool call over HTTP and over MCP on one server in this process,
// one call at a time: MCP's cost is its JSON-RPC framing, the SDK's session
// and the fasthttp to net/http bridge (RATIONALE.md, "Why MCP through
// fiber's fasthttp adaptor"). Reported: p50 and p99 latency of one call, in
// microseconds. 16 clients at once against the real server:
// tests/e2e BenchmarkMCP16Sessions.
//
//	go test ./api -run '^$' -bench MCPOverhead -benchtime 5000x -count 3

// benchCallers returns a function making one call per transport, for a
// client of its own.
func benchCallers(b *testing.B, f *mcpFixture) map[string]func() func() error {
	return map[string]func() func() error{
		"http": func() func() error {
			return func() error {
				req, _ := http.NewRequest("POST", f.base+"/v1/tools/get_diagnostics", strings.NewReader(`{"uri": "nothing.py"}`))
				req.Header.Set("Authorization", "Bearer "+testKey)
				resp, err := f.client.Do(req)
				if err != nil {
					return err
				}
				resp.Body.Close()
				return nil
			}
		},
		"mcp": func() func() error {
			cs := f.connect(b, testKey)
			return func() error {
				_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_diagnostics", Arguments: map[string]any{"uri": "nothing.py"}})
				return err
			}
		},
	}
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	at := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

func BenchmarkMCPOverheadOneClient(b *testing.B) {
	f := startMCPFixture(b)
	for _, transport := range []string{"http", "mcp"} {
		b.Run(transport, func(b *testing.B) {
			call := benchCallers(b, f)[transport]()
			d := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				if err := call(); err != nil {
					b.Fatal(err)
				}
				d = append(d, time.Since(start))
			}
			reportPercentiles(b, d)
		})
	}
}
