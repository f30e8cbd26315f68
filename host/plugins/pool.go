package plugins

import (
	"context"
	"sync"
	"time"
)

// workerPool holds the idle workers and the calls waiting for one, and
// decides which waiting call gets the next free worker:
//
//   - Per-plugin bound: a plugin holds at most maxPerPlugin workers at
//     once, so a plugin that loops or crawls keeps its own share and the
//     other plugins always find a worker. A call over its plugin's bound
//     waits while calls of other plugins pass it.
//   - Work-conserving: when lend is on and no call under its bound waits,
//     an idle worker is lent to a call over its plugin's bound, but only
//     to a plugin whose last call answered within the overrun threshold
//     and none of whose calls is overrunning now (trusted). An index build
//     then keeps every worker busy; another plugin's call arriving
//     meanwhile gets the first worker to come free, or a spare once a
//     lent call overruns (spare.go). A plugin that loops is never lent
//     more than once: its overrunning call withdraws the trust.
//   - Fair across tenants: waiting calls queue per tenant (first come,
//     first served within a tenant) and tenants are served round-robin, so
//     one tenant's burst waits behind itself, not in front of everyone.
//   - Affinity: a call may name the file it is about; if the worker that
//     last parsed that file is idle when the call is served, the call gets
//     it, because that worker may have the tree of these very bytes in its
//     tree cache (an index batch parsed every file once) or keep the file's
//     last tree and parse the new version incrementally: a few ms instead
//     of about 80 for a 5,000-line file. Otherwise any idle worker will
//     do: affinity never makes a call wait.
type workerPool struct {
	mu           sync.Mutex
	maxPerPlugin int            // 0: no bound
	idle         []*worker      // oldest first
	held         map[string]int // plugin -> workers its calls hold
	lanes        []*tenantLane  // tenants with waiting calls, in serving order
	laneOf       map[string]*tenantLane
	next         int                // index in lanes of the tenant served next
	waiting      int                // calls in all lanes
	served       map[string]*worker // file key -> worker that last served it
	sparesComing int                // spare workers starting (see spare.go)
	lend         bool               // lend idle workers over the bound (needs spares)
	prompt       map[string]bool    // plugin -> its last call answered before overrunning
	overrunning  map[string]int     // plugin -> its calls running past the overrun threshold
}

// waiter is one call waiting for a worker.
type waiter struct {
	plugin, file, tenant string
	got                  chan *worker // buffered for the one worker it will get
}

type tenantLane struct {
	tenant  string
	waiting []*waiter // first come first
}

// maxServed bounds served; past it the map starts over (affinity is only
// a hint).
const maxServed = 4096

// take returns a worker for a call of plugin for tenant (about file, ""
// for none), or a waiter whose channel will deliver one; a caller that
// stops waiting must call leave with it. The caller owns one of plugin's
// slots from the moment it has the worker, and gives it back with done.
func (p *workerPool) take(plugin, file, tenant string) (*worker, *waiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	wt := &waiter{plugin: plugin, file: file, tenant: tenant, got: make(chan *worker, 1)}
	lane := p.laneOf[tenant]
	if lane == nil {
		if p.laneOf == nil {
			p.laneOf = map[string]*tenantLane{}
		}
		lane = &tenantLane{tenant: tenant}
		p.laneOf[tenant] = lane
		p.lanes = append(p.lanes, lane)
	}
	lane.waiting = append(lane.waiting, wt)
	p.waiting++
	p.dispatch()
	select {
	case w := <-wt.got:
		return w, nil
	default:
		return nil, wt
	}
}

// leave withdraws a waiter. If a worker was already handed to it, the
// worker and the plugin slot go back to the pool.
func (p *workerPool) leave(wt *waiter) {
	p.mu.Lock()
	if lane := p.laneOf[wt.tenant]; lane != nil {
		for i, c := range lane.waiting {
			if c == wt {
				p.unqueue(lane, i)
				p.mu.Unlock()
				return
			}
		}
	}
	p.mu.Unlock()
	// dispatch sent to got under mu, so the worker is already there.
	p.done(wt.plugin, <-wt.got)
}

// done ends a call of plugin: its slot is free again, and w (nil when the
// worker is being replaced instead) is idle for the next call.
func (p *workerPool) done(plugin string, w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held[plugin] > 1 {
		p.held[plugin]--
	} else {
		delete(p.held, plugin)
	}
	if w != nil {
		p.makeIdle(w)
	}
	p.dispatch()
}

// makeIdle appends w to the idle list. Called with mu held.
func (p *workerPool) makeIdle(w *worker) {
	w.idleSince = time.Now()
	p.idle = append(p.idle, w)
}

// put adds a new worker (started or replaced) to the pool.
func (p *workerPool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.makeIdle(w)
	p.dispatch()
}

// dispatch hands idle workers to waiting calls, tenants in turn, until
// no worker is idle or no waiting call may run. Called with mu held.
func (p *workerPool) dispatch() {
	for len(p.idle) > 0 && p.waiting > 0 {
		wt := p.nextRunnable()
		if wt == nil {
			return
		}
		w := p.idleFor(wt.file)
		if p.held == nil {
			p.held = map[string]int{}
		}
		p.held[wt.plugin]++
		wt.got <- w
	}
}

// nextRunnable removes and returns the first call, starting from the
// tenant whose turn it is, whose plugin is under its bound; failing that,
// the first whose plugin may borrow a worker over it.
func (p *workerPool) nextRunnable() *waiter {
	if wt := p.nextWhere(p.underBound); wt != nil {
		return wt
	}
	if !p.lend {
		return nil
	}
	return p.nextWhere(p.trusted)
}

// nextWhere removes and returns the first call, starting from the tenant
// whose turn it is, whose plugin passes may.
func (p *workerPool) nextWhere(may func(plugin string) bool) *waiter {
	n := len(p.lanes)
	for k := range n {
		i := (p.next + k) % n
		lane := p.lanes[i]
		for j, wt := range lane.waiting {
			if !may(wt.plugin) {
				continue
			}
			p.next = i + 1 // the turn passes to the next tenant (unqueue shifts it with the lanes)
			p.unqueue(lane, j)
			return wt
		}
	}
	return nil
}

// trusted reports whether plugin may borrow a worker over its bound: its
// last call answered before overrunning and none overruns now. Called
// with mu held.
func (p *workerPool) trusted(plugin string) bool {
	return p.prompt[plugin] && p.overrunning[plugin] == 0
}

// overran records that a call of plugin runs past the overrun threshold;
// settle ends it.
func (p *workerPool) overran(plugin string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.overrunning == nil {
		p.overrunning = map[string]int{}
	}
	p.overrunning[plugin]++
}

// settle records how a call of plugin ended: answered before overrunning
// (prompt), or after overran (overrun: it was counted).
func (p *workerPool) settle(plugin string, overrun bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if overrun {
		if p.overrunning[plugin] > 1 {
			p.overrunning[plugin]--
		} else {
			delete(p.overrunning, plugin)
		}
	}
	if p.prompt == nil {
		p.prompt = map[string]bool{}
	}
	p.prompt[plugin] = !overrun
}

// underBound reports whether plugin may take one more worker. Called
// with mu held.
func (p *workerPool) underBound(plugin string) bool {
	return p.maxPerPlugin <= 0 || p.held[plugin] < p.maxPerPlugin
}

// unqueue removes lane.waiting[j], and the lane once empty.
func (p *workerPool) unqueue(lane *tenantLane, j int) {
	lane.waiting = append(lane.waiting[:j], lane.waiting[j+1:]...)
	p.waiting--
	if len(lane.waiting) > 0 {
		return
	}
	delete(p.laneOf, lane.tenant)
	for i, l := range p.lanes {
		if l == lane {
			p.lanes = append(p.lanes[:i], p.lanes[i+1:]...)
			if i < p.next {
				p.next--
			}
			break
		}
	}
}

// idleFor removes and returns the idle worker that last served file, or
// else the one idle longest. Called with mu held and a worker idle.
func (p *workerPool) idleFor(file string) *worker {
	i := 0
	if last, ok := p.served[file]; ok && file != "" {
		for j, w := range p.idle {
			if w == last {
				i = j
				break
			}
		}
	}
	w := p.idle[i]
	p.idle = append(p.idle[:i], p.idle[i+1:]...)
	return w
}

// takeIdle removes w from the idle list if it is still there and has
// been idle for at least d (for recycling an idle worker without racing a
// call for it).
func (p *workerPool) takeIdle(w *worker, d time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, iw := range p.idle {
		if iw == w && time.Since(w.idleSince) >= d {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return true
		}
	}
	return false
}

// takeIdleWhere removes and returns the worker idle longest for which ok
// holds, nil when none is idle.
func (p *workerPool) takeIdleWhere(ok func(*worker) bool) *worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, w := range p.idle {
		if ok(w) {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return w
		}
	}
	return nil
}

// idleLongerThan returns the workers idle for at least d now.
func (p *workerPool) idleLongerThan(d time.Duration) []*worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ws []*worker
	for _, w := range p.idle {
		if time.Since(w.idleSince) >= d {
			ws = append(ws, w)
		}
	}
	return ws
}

// starved reports whether more waiting calls could run now than there
// are idle workers and spares on their way (a call over its plugin's
// bound could not run). The caller holds p.mu.
func (p *workerPool) starved() bool {
	supply := len(p.idle) + p.sparesComing
	extra := map[string]int{} // runnable calls counted per plugin so far
	for _, lane := range p.lanes {
		for _, wt := range lane.waiting {
			if p.maxPerPlugin > 0 && p.held[wt.plugin]+extra[wt.plugin] >= p.maxPerPlugin {
				continue
			}
			extra[wt.plugin]++
			if supply--; supply < 0 {
				return true
			}
		}
	}
	return false
}

// reserveSpare records a spare worker on its way when calls are starved
// and claim grants one, in one step: two overrunning calls that see the
// same waiting call must not both send for a spare. arriveSpare delivers
// it (nil: it never started).
func (p *workerPool) reserveSpare(claim func() bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.starved() || !claim() {
		return false
	}
	p.sparesComing++
	return true
}

func (p *workerPool) arriveSpare(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sparesComing--
	if w != nil {
		p.makeIdle(w)
		p.dispatch()
	}
}

// queued is the number of calls waiting for a worker.
func (p *workerPool) queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waiting
}

// remember records that w served file.
func (p *workerPool) remember(file string, w *worker) {
	if file == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.served == nil || len(p.served) >= maxServed {
		p.served = map[string]*worker{}
	}
	p.served[file] = w
}

// forget drops what w served (it is being replaced).
func (p *workerPool) forget(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for f, sw := range p.served {
		if sw == w {
			delete(p.served, f)
		}
	}
}

// drain empties the idle list and returns what was in it.
func (p *workerPool) drain() []*worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	idle := p.idle
	p.idle = nil
	return idle
}

type tenantKey struct{}

// WithTenant returns ctx carrying the tenant a plugin call is made for.
// The runtime queues waiting calls per tenant and serves tenants in turn;
// calls without one share the lane of the empty tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// TenantOf returns the tenant set by WithTenant, or "".
func TenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}
