package plugins

import (
	"testing"
	"time"
)

func TestWorkerPool(t *testing.T) {
	var p workerPool
	a, b, c := &worker{pid: 1}, &worker{pid: 2}, &worker{pid: 3}
	p.put(a)
	p.put(b)
	p.put(c)

	// Without a known file: oldest idle first.
	if w, _ := p.take("x", "", ""); w != a {
		t.Fatalf("took pid %d, want the oldest idle (1)", w.pid)
	}
	// The worker that served a file is preferred while idle.
	p.remember("file:///w/x.py", c)
	if w, _ := p.take("x", "file:///w/x.py", ""); w != c {
		t.Fatalf("took pid %d, want the one that served x.py (3)", w.pid)
	}
	// Not idle: any idle worker, no waiting.
	if w, _ := p.take("x", "file:///w/x.py", ""); w != b {
		t.Fatalf("took pid %d, want the only idle one (2)", w.pid)
	}

	// Nothing idle: waiters of one tenant are served first come, first served.
	_, first := p.take("x", "", "")
	_, second := p.take("x", "file:///w/x.py", "")
	if first == nil || second == nil {
		t.Fatal("take with nothing idle must return a waiter")
	}
	p.done("x", a)
	if w := <-first.got; w != a {
		t.Fatalf("first waiter got pid %d", w.pid)
	}
	// A waiter that leaves before a worker comes takes nothing with it.
	p.leave(second)
	p.done("x", b)
	if w, _ := p.take("x", "", ""); w != b {
		t.Fatal("the worker given back after a waiter left did not become idle")
	}
	// A waiter that leaves after being handed a worker gives it back.
	_, third := p.take("x", "", "")
	p.done("x", c)
	p.leave(third)
	if w, _ := p.take("x", "", ""); w != c {
		t.Fatal("a worker handed to a waiter that left was lost")
	}

	// A replaced worker is forgotten; drain empties the idle list.
	p.remember("file:///w/y.py", a)
	p.forget(a)
	if _, ok := p.served["file:///w/y.py"]; ok {
		t.Error("forget kept a replaced worker's files")
	}
	p.put(a)
	p.put(b)
	if got := p.drain(); len(got) != 2 || len(p.idle) != 0 {
		t.Fatalf("drain returned %d workers, %d left idle", len(got), len(p.idle))
	}
}

// TestWorkerPoolServesTenantsInTurn: a tenant that queued a burst first
// does not hold the workers for tenants that came after it.
func TestWorkerPoolServesTenantsInTurn(t *testing.T) {
	var p workerPool
	type call struct {
		name string
		wt   *waiter
	}
	var calls []call
	queue := func(tenant, name string) {
		w, wt := p.take("diagnostics", "", tenant)
		if w != nil {
			t.Fatalf("%s got a worker with none idle", name)
		}
		calls = append(calls, call{name, wt})
	}
	for _, n := range []string{"a1", "a2", "a3", "a4"} {
		queue("A", n)
	}
	queue("B", "b1")
	queue("C", "c1")
	queue("B", "b2")

	var order []string
	w := &worker{pid: 1}
	for i := range calls {
		if i == 0 {
			p.put(w)
		} else {
			p.done("diagnostics", w) // the call served last ends and frees the worker
		}
		var got string
		for _, c := range calls {
			select {
			case <-c.wt.got:
				got = c.name
			default:
				continue
			}
			break
		}
		if got == "" {
			t.Fatalf("a free worker went to no waiting call (served so far: %v)", order)
		}
		order = append(order, got)
	}
	want := []string{"a1", "b1", "c1", "a2", "b2", "a3", "a4"}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("served %v, want tenants in turn %v", order, want)
		}
	}
	if p.queued() != 0 {
		t.Errorf("%d calls still queued", p.queued())
	}
}

// TestWorkerPoolBoundsEachPlugin: a plugin holds at most maxPerPlugin
// workers; its next call waits while another plugin's call takes the idle
// worker, and gets a worker when one of its own calls ends.
func TestWorkerPoolBoundsEachPlugin(t *testing.T) {
	p := workerPool{maxPerPlugin: 1}
	a, b := &worker{pid: 1}, &worker{pid: 2}
	p.put(a)
	p.put(b)

	loop1, _ := p.take("loop", "", "T")
	if loop1 == nil {
		t.Fatal("the first loop call must get a worker")
	}
	loop2, wait := p.take("loop", "", "T")
	if loop2 != nil {
		t.Fatal("a second loop call got a worker past the plugin's bound")
	}
	// The same tenant's call of another plugin passes the blocked one.
	echo, _ := p.take("echo", "", "T")
	if echo == nil {
		t.Fatal("an echo call waited although a worker was idle and echo under its bound")
	}
	p.done("echo", echo) // a free worker, but loop is still at its bound
	select {
	case <-wait.got:
		t.Fatal("the waiting loop call got a worker while loop held its bound")
	default:
	}
	p.done("loop", nil) // the first loop call ends; its worker is being replaced
	select {
	case w := <-wait.got:
		if w != echo {
			t.Fatalf("got pid %d, want the idle one", w.pid)
		}
	case <-time.After(time.Second):
		t.Fatal("the waiting loop call got no worker once loop was under its bound")
	}
}

// TestWorkerPoolLendsOverTheBound: with no call under its bound waiting,
// an idle worker is lent past the bound to a plugin whose last call
// answered before overrunning; another plugin's call that arrives while
// both workers are lent gets the first to come free, ahead of the
// lender's queued calls; a plugin with a call overrunning (or none
// answered yet, or lending off) is lent nothing.
func TestWorkerPoolLendsOverTheBound(t *testing.T) {
	served := func(wt *waiter) *worker {
		select {
		case w := <-wt.got:
			return w
		default:
			return nil
		}
	}
	for _, lend := range []bool{false, true} {
		p := workerPool{maxPerPlugin: 1, lend: lend}
		a, b := &worker{pid: 1}, &worker{pid: 2}
		p.put(a)
		p.put(b)

		idx1, _ := p.take("index", "", "T")
		_, wait := p.take("index", "", "T")
		if served(wait) != nil {
			t.Fatalf("lend=%v: a plugin with no call answered yet was lent a worker", lend)
		}
		p.settle("index", false) // idx1 answered before overrunning
		p.done("index", idx1)
		idx2 := served(wait)
		idx3, _ := p.take("index", "", "T")
		if !lend {
			if idx3 != nil {
				t.Fatal("lend=false: a worker was lent over the bound")
			}
			continue
		}
		if idx2 == nil || idx3 == nil {
			t.Fatal("a trusted plugin was not lent the idle worker with nothing else waiting")
		}
		_, idx4 := p.take("index", "", "T")
		_, echo := p.take("echo", "", "U")
		p.settle("index", false)
		p.done("index", idx2)
		if served(idx4) != nil {
			t.Fatal("the lender's queued call took the worker another plugin's call waited for")
		}
		echoW := served(echo)
		if echoW != idx2 {
			t.Fatal("another plugin's call did not get the first worker to come free")
		}

		p.overran("index") // idx3 runs on past the threshold
		p.done("echo", echoW)
		if served(idx4) != nil {
			t.Fatal("a worker was lent to a plugin with a call overrunning")
		}
		if w, _ := p.take("echo", "", "U"); w != echoW {
			t.Fatal("another plugin's call waited while a worker was idle")
		} else {
			p.done("echo", w)
		}
		p.settle("index", true) // idx3 ends, late
		p.done("index", idx3)
		if served(idx4) == nil {
			t.Fatal("the plugin's queued call got no worker once under its bound")
		}
		if p.trusted("index") {
			t.Error("a plugin whose last call overran is still trusted")
		}
	}
}

func TestWorkerPoolServedIsBounded(t *testing.T) {
	var p workerPool
	w := &worker{}
	for i := range maxServed + 10 {
		p.remember(string(rune('a'+i%26))+string(rune(i)), w)
	}
	if len(p.served) > maxServed {
		t.Fatalf("served holds %d files, bound %d", len(p.served), maxServed)
	}
}
