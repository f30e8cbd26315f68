package plugins

import "sync"

// workerPool holds the idle workers and the calls waiting for one, first
// come first served. A call may name the file it is about; if the worker
// that last parsed that file is idle, the call gets it, because that
// worker may have the tree of these very bytes in its tree cache (an
// index batch parsed every file once) or keep the file's last tree and
// parse the new version incrementally: a few ms instead of about 80 for a
// 5,000-line file. Otherwise any idle worker will do: affinity never
// makes a call wait.
type workerPool struct {
	mu      sync.Mutex
	idle    []*worker          // oldest first
	waiters []chan *worker     // each buffered for the one worker it will get
	served  map[string]*worker // file key -> worker that last served it
}

// maxServed bounds served; past it the map starts over (affinity is only
// a hint).
const maxServed = 4096

// take returns an idle worker, or a channel that will deliver one; a
// caller that stops waiting must call leave with that channel.
func (p *workerPool) take(file string) (*worker, chan *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) > 0 {
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
		return w, nil
	}
	wait := make(chan *worker, 1)
	p.waiters = append(p.waiters, wait)
	return nil, wait
}

// leave withdraws a waiter. If a worker was already handed to it, the
// worker goes back to the pool.
func (p *workerPool) leave(wait chan *worker) {
	p.mu.Lock()
	for i, c := range p.waiters {
		if c == wait {
			p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
			p.mu.Unlock()
			return
		}
	}
	p.mu.Unlock()
	// put sent to wait under mu, so the worker is already there.
	p.put(<-wait)
}

// put makes w available: to the longest waiting call, or idle.
func (p *workerPool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.waiters) > 0 {
		wait := p.waiters[0]
		p.waiters = p.waiters[1:]
		wait <- w
		return
	}
	p.idle = append(p.idle, w)
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
