// Package load holds the HTTP load figures: the wrk script (run.sh) and
// Go benchmarks that compare configurations of the real API in one run.
package load

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pyws/pyws/api"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/ratelimit"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
)

const benchKeys = 64

// BenchmarkReadFileLimiter serves the read-file resource over real HTTP on
// loopback and compares no limiter, the memory store and Redis in one run.
// Each of 64 pro keys has a 50,000-a-day read budget, so no request is
// refused: the figure is the cost of charging, not of refusing.
func BenchmarkReadFileLimiter(b *testing.B) {
	b.Run("none", func(b *testing.B) { benchReadFile(b, nil) })
	b.Run("memory", func(b *testing.B) { benchReadFile(b, ratelimit.New(nil, ratelimit.Options{})) })
	b.Run("redis", func(b *testing.B) {
		url := startRedis(b)
		rs, err := ratelimit.NewRedisStore(url, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		defer rs.Close()
		benchReadFile(b, ratelimit.New(rs, ratelimit.Options{}))
	})
}

func benchReadFile(b *testing.B, lim *ratelimit.Limiter) {
	ws := b.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "m.py"), []byte("def f():\n    return 1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	keys, _ := tenants.Open("")
	secrets := make([]string, benchKeys)
	for i := range secrets {
		secrets[i] = fmt.Sprintf("pyws_bench_%d_%d", time.Now().UnixNano(), i)
		keys.AddInMemory(secrets[i], tenants.Key{ID: "bench" + strconv.Itoa(i) + strconv.FormatInt(time.Now().UnixNano(), 36), Tenant: "bench", Tier: tiers.Pro, Workspace: ws})
	}
	svc := service.New(service.Config{DefaultWorkspace: ws, Metrics: metrics.New()})
	defer svc.Close()
	opts := api.Options{Service: svc, Keys: keys}
	if lim != nil {
		opts.Limiter = lim
	}
	app := api.New(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go app.Listener(ln)
	defer app.Shutdown()
	url := "http://" + ln.Addr().String() + "/v1/resources/file/m.py?includeMetadata=false"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchKeys}}
	var next atomic.Int64
	b.SetParallelism((benchKeys + 1) / 2) // 64 concurrent clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		secret := secrets[next.Add(1)%benchKeys]
		for pb.Next() {
			req, _ := http.NewRequest("GET", url, nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
	b.StopTimer()
	client.CloseIdleConnections() // else Shutdown waits for keep-alive connections to time out
}

// startRedis runs a private redis-server for the benchmark.
func startRedis(b *testing.B) string {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		b.Skip("redis-server is not installed")
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no", "--dir", b.TempDir())
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "redis://127.0.0.1:" + port + "/0"
}
