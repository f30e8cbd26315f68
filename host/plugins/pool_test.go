package plugins

import "testing"

func TestWorkerPool(t *testing.T) {
	var p workerPool
	a, b, c := &worker{pid: 1}, &worker{pid: 2}, &worker{pid: 3}
	p.put(a)
	p.put(b)
	p.put(c)

	// Without a known file: oldest idle first.
	if w, _ := p.take(""); w != a {
		t.Fatalf("took pid %d, want the oldest idle (1)", w.pid)
	}
	// The worker that served a file is preferred while idle.
	p.remember("file:///w/x.py", c)
	if w, _ := p.take("file:///w/x.py"); w != c {
		t.Fatalf("took pid %d, want the one that served x.py (3)", w.pid)
	}
	// Not idle: any idle worker, no waiting.
	if w, _ := p.take("file:///w/x.py"); w != b {
		t.Fatalf("took pid %d, want the only idle one (2)", w.pid)
	}

	// Nothing idle: waiters are served first come, first served.
	_, first := p.take("")
	_, second := p.take("file:///w/x.py")
	if first == nil || second == nil {
		t.Fatal("take with nothing idle must return a wait channel")
	}
	p.put(a)
	if w := <-first; w != a {
		t.Fatalf("first waiter got pid %d", w.pid)
	}
	// A waiter that leaves before a worker comes takes nothing with it.
	p.leave(second)
	p.put(b)
	if w, _ := p.take(""); w != b {
		t.Fatal("the worker put after a waiter left did not become idle")
	}
	// A waiter that leaves after being handed a worker gives it back.
	_, third := p.take("")
	p.put(c)
	p.leave(third)
	if w, _ := p.take(""); w != c {
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
