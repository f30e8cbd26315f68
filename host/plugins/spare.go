package plugins

import (
	"sync"
	"time"
)

// A spare worker stands in for a call that overran. Without one, a plugin
// stuck until its deadline (30 s by default) holds a worker that every
// other plugin counts on: the per-plugin bound keeps the stuck plugin to
// its share, but the others then share one worker fewer, and their calls
// queue. So a call that has run for Config.SpareAfter while other calls
// that could run wait for a worker gets a spare started at once; the
// pool is one worker larger until the overrunning call ends, and then
// that call's worker is retired instead of going back (or, if it was
// killed, is not replaced: the spare already is its successor).

// overrunWatch watches one running call for an overrun.
type overrunWatch struct {
	pool    *workerPool
	plugin  string
	mu      sync.Mutex
	timer   *time.Timer
	ended   bool
	overran bool // counted in pool.overrunning
	spared  bool // a spare stands in for this call
}

// watchOverrun starts watching a call of p running on w; the caller must
// call end when the call returns. nil (a no-op watch) when spares are off.
func (r *Runtime) watchOverrun(p *plugin, w *worker) *overrunWatch {
	after := r.cfg.SpareAfter
	if after <= 0 {
		return nil
	}
	ov := &overrunWatch{pool: &r.pool, plugin: p.manifest.Name}
	recheck := max(after/4, 10*time.Millisecond)
	check := func() {
		ov.mu.Lock()
		defer ov.mu.Unlock()
		if ov.ended {
			return
		}
		if !ov.overran {
			ov.overran = true
			r.pool.overran(ov.plugin) // no worker is lent to the plugin meanwhile
		}
		if r.pool.reserveSpare(r.claimSpare) {
			ov.spared = true
			r.log.Info("plugin call overran while calls wait for a worker: a spare worker stands in",
				"plugin", p.manifest.Name, "pid", w.pid, "after", after)
			r.startSpare()
			return
		}
		ov.timer.Reset(recheck)
	}
	ov.mu.Lock()
	ov.timer = time.AfterFunc(after, check)
	ov.mu.Unlock()
	return ov
}

// end stops the watch, tells the pool whether the call overran, and
// reports whether a spare stands in for the call.
func (ov *overrunWatch) end() bool {
	if ov == nil {
		return false
	}
	ov.mu.Lock()
	defer ov.mu.Unlock()
	ov.ended = true
	ov.timer.Stop()
	ov.pool.settle(ov.plugin, ov.overran)
	return ov.spared
}

// claimSpare takes one of the Workers spares that may stand in at once.
func (r *Runtime) claimSpare() bool {
	for {
		n := r.spares.Load()
		if n >= int64(r.cfg.Workers) {
			return false
		}
		if r.spares.CompareAndSwap(n, n+1) {
			r.spared.Add(1)
			return true
		}
	}
}

// startSpare starts the worker reserveSpare reserved, in the background;
// it joins the pool.
func (r *Runtime) startSpare() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		r.pool.arriveSpare(nil)
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.pool.arriveSpare(r.startWithRetry())
	}()
}

// retireStoodIn ends a call a spare stood in for: its worker w is retired
// without a successor and p's slot is free again. failed: the call was
// killed or its worker died (counted as a restart, like a replacement).
func (r *Runtime) retireStoodIn(p *plugin, w *worker, failed bool) {
	if failed && r.ctx.Err() == nil {
		r.restarts.Add(1)
	}
	r.pool.forget(w)
	w.retire()
	r.ready.Add(-1)
	r.spares.Add(-1)
	r.pool.done(p.manifest.Name, nil)
}
