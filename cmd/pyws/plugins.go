package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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

// pluginRuntime is the plugin runtime as the service sees it, from
// before it has started: plugins.Start (verifying, loading or compiling
// the guests, starting the workers) takes from half a second to seconds,
// and the service does not wait for it. What the tools and caches need
// first, which plugin serves which tool and its build, comes from the
// manifests (plugins.Resolve); a call waits until the runtime is up. So
// the workspace is opened, listed and indexed from its disk cache (a
// restart needs no plugin call at all) while the workers start.
type pluginRuntime struct {
	tools  []string
	sha    map[string]string // by tool
	wanted int
	ready  chan struct{} // closed once Start returned: rt or err set
	rt     *plugins.Runtime
	err    error
}

// startPlugins resolves cfg's plugins and starts the runtime in the
// background; errors in the manifests are returned at once.
func startPlugins(ctx context.Context, cfg plugins.Config) (*pluginRuntime, error) {
	owners, err := plugins.Resolve(cfg.Dirs, cfg.Logger)
	if err != nil {
		return nil, err
	}
	p := &pluginRuntime{sha: map[string]string{}, wanted: cfg.Workers, ready: make(chan struct{})}
	for t, m := range owners {
		p.tools = append(p.tools, t)
		p.sha[t] = m.SHA256
	}
	slices.Sort(p.tools)
	go func() {
		p.rt, p.err = plugins.Start(ctx, cfg)
		close(p.ready)
	}()
	return p, nil
}

// Started is closed when the runtime's start is over; Err then says
// whether it failed.
func (p *pluginRuntime) Started() <-chan struct{} { return p.ready }

// Err is the runtime's start error, nil while it starts or once it runs.
func (p *pluginRuntime) Err() error {
	select {
	case <-p.ready:
		return p.err
	default:
		return nil
	}
}

// running returns the runtime once started, nil before (or after a
// failed start).
func (p *pluginRuntime) running() *plugins.Runtime {
	select {
	case <-p.ready:
		return p.rt
	default:
		return nil
	}
}

func (p *pluginRuntime) Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error) {
	select {
	case <-p.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.err != nil {
		return nil, fmt.Errorf("plugin runtime did not start: %w", p.err)
	}
	return p.rt.Call(ctx, tool, req)
}

func (p *pluginRuntime) Tools() []string { return p.tools }

func (p *pluginRuntime) PluginSHA256(tool string) string { return p.sha[tool] }

func (p *pluginRuntime) Health() service.PluginHealth {
	h := service.PluginHealth{WorkersWanted: p.wanted}
	rt := p.running()
	if rt == nil {
		h.Starting = p.Err() == nil
		if !h.Starting {
			h.Problem = "plugin runtime did not start: " + p.Err().Error()
		}
		return h
	}
	st := rt.Stats()
	h.WorkersAlive = st.Workers
	if st.Workers < p.wanted {
		h.Problem = fmt.Sprintf("%d of %d plugin workers running (%d restarts so far)", st.Workers, p.wanted, st.Restarts)
	}
	return h
}

// stats are the runtime's counters, zero before it runs.
func (p *pluginRuntime) stats() plugins.Stats {
	if rt := p.running(); rt != nil {
		return rt.Stats()
	}
	return plugins.Stats{}
}

// workerMemory is the runtime's WorkerMemory, zero before it runs.
func (p *pluginRuntime) workerMemory() (total, largest int64) {
	if rt := p.running(); rt != nil {
		return rt.WorkerMemory()
	}
	return 0, 0
}

// Close waits for the start to end and stops the runtime.
func (p *pluginRuntime) Close() {
	<-p.ready
	if p.rt != nil {
		p.rt.Close()
	}
}

// registerPluginMetrics exposes the worker pool's state to Prometheus.
func registerPluginMetrics(rec *metrics.Recorder, rt *pluginRuntime) {
	stat := func(f func(plugins.Stats) float64) func() float64 {
		return func() float64 { return f(rt.stats()) }
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
	rec.GaugeFunc("pyws_plugin_worker_rss_bytes", "Resident memory of all plugin workers (Linux; 0 elsewhere).", func() float64 { total, _ := rt.workerMemory(); return float64(total) })
	rec.GaugeFunc("pyws_plugin_worker_rss_max_bytes", "Resident memory of the largest plugin worker (Linux; 0 elsewhere).", func() float64 { _, largest := rt.workerMemory(); return float64(largest) })
}
