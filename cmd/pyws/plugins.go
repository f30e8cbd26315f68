package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

const workerCommand = plugins.WorkerCommand

func runWorker() { plugins.WorkerMain() }

func pluginCommand(args []string) error {
	if len(args) != 3 || args[0] != "pack" {
		return errors.New("plugin: usage: pyws plugin pack SRC_DIR PLUGINS_DIR")
	}
	m, err := plugins.Pack(context.Background(), args[1], args[2])
	if err != nil {
		return err
	}
	fmt.Printf("packed %s %s (tools %s) into %s, sha256 %s\n", m.Name, m.Version, strings.Join(m.Tools, ","), filepath.Join(args[2], m.Name), m.SHA256)
	return nil
}

// pluginRuntime adapts the runtime to what the service needs.
type pluginRuntime struct {
	rt     *plugins.Runtime
	wanted int
}

func (p pluginRuntime) Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error) {
	return p.rt.Call(ctx, tool, req)
}

func (p pluginRuntime) Tools() []string { return p.rt.Tools() }

func (p pluginRuntime) PluginSHA256(tool string) string { return p.rt.PluginSHA256(tool) }

func (p pluginRuntime) Health() service.PluginHealth {
	st := p.rt.Stats()
	h := service.PluginHealth{WorkersWanted: p.wanted, WorkersAlive: st.Workers}
	if st.Workers < p.wanted {
		h.Problem = fmt.Sprintf("%d of %d plugin workers running (%d restarts so far)", st.Workers, p.wanted, st.Restarts)
	}
	return h
}

// registerPluginMetrics exposes the worker pool's state to Prometheus.
func registerPluginMetrics(rec *metrics.Recorder, rt *plugins.Runtime) {
	stat := func(f func(plugins.Stats) float64) func() float64 {
		return func() float64 { return f(rt.Stats()) }
	}
	rec.GaugeFunc("pyws_plugin_workers", "Plugin worker processes ready or busy.", stat(func(s plugins.Stats) float64 { return float64(s.Workers) }))
	rec.GaugeFunc("pyws_plugin_workers_busy", "Plugin workers running a call.", stat(func(s plugins.Stats) float64 { return float64(s.Busy) }))
	rec.GaugeFunc("pyws_plugin_calls_queued", "Plugin calls waiting for a worker.", stat(func(s plugins.Stats) float64 { return float64(s.Queued) }))
	rec.CounterFunc("pyws_plugin_calls_total", "Plugin calls dispatched.", stat(func(s plugins.Stats) float64 { return float64(s.Calls) }))
	rec.CounterFunc("pyws_plugin_timeouts_total", "Plugin calls stopped at their deadline (counted from arrival), queued or running.", stat(func(s plugins.Stats) float64 { return float64(s.Timeouts) }))
	rec.CounterFunc("pyws_plugin_cancellations_total", "Plugin calls stopped because the caller gave up, queued or running.", stat(func(s plugins.Stats) float64 { return float64(s.Cancellations) }))
	rec.CounterFunc("pyws_plugin_traps_total", "Guest traps, exits and out-of-memory.", stat(func(s plugins.Stats) float64 { return float64(s.Traps) }))
	rec.CounterFunc("pyws_plugin_worker_restarts_total", "Workers replaced after a timeout, cancellation or crash.", stat(func(s plugins.Stats) float64 { return float64(s.Restarts) }))
	rec.CounterFunc("pyws_plugin_worker_spares_total", "Spare workers started to stand in for a call that overran while other calls waited for a worker.", stat(func(s plugins.Stats) float64 { return float64(s.Spares) }))
	rec.CounterFunc("pyws_plugin_worker_recycles_total", "Workers replaced because their resident memory passed a bound (after a call, or idle).", stat(func(s plugins.Stats) float64 { return float64(s.Recycles) }))
	rec.GaugeFunc("pyws_plugin_worker_rss_bytes", "Resident memory of all plugin workers (Linux; 0 elsewhere).", func() float64 { total, _ := rt.WorkerMemory(); return float64(total) })
	rec.GaugeFunc("pyws_plugin_worker_rss_max_bytes", "Resident memory of the largest plugin worker (Linux; 0 elsewhere).", func() float64 { _, largest := rt.WorkerMemory(); return float64(largest) })
}
