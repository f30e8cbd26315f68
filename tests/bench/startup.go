package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pyws/pyws/tests/differential/pyright"
)

// startupRun is one round of pyws's start-up figures on a corpus, each
// from the launch of its own `pyws serve`.
type startupRun struct {
	// cold: a fresh --state, with the prepared state `make build` wrote
	// beside the binary (what a new install starts with).
	cold time.Duration
	// unprepared: a fresh --state and --prepared "" (every plugin
	// compiled and every stub summarized at start).
	unprepared time.Duration
	// newWorkspace: a new workspace on a warm host (the unprepared run's
	// compiled plugins, summaries and interpreter answers copied), early
	// the same to the first get_definition answer (index.Early, during
	// the build).
	newWorkspace, early time.Duration
	restart             time.Duration // on the cold run's state
	build, newBuild     time.Duration // index builds logged by cold and newWorkspace
	refs                int
}

// earlyQueried is the file an early get_definition names, as
// BenchmarkEarlyAnswer's: deep in the workspace, importing much.
var earlyQueried = map[string]string{"django": "django/db/models/query.py", "stdlib": "json/decoder.py"}

// measureStartup takes one startupRun in dir/run<i>. serving, when not
// nil, is called with the cold server once it answered (the query,
// formatting and diagnostics rows use it).
func measureStartup(cfg config, c pyright.Corpus, root, dir string, serving func(*pywsServer) error, servingArgs ...string) (startupRun, error) {
	var r startupRun
	if err := os.RemoveAll(dir); err != nil {
		return r, err
	}
	limit := 10 * time.Minute
	// One server to its first complete references answer; the server is
	// left running for keep, stopped otherwise.
	refs := func(state string, keep func(*pywsServer) error, args ...string) (time.Duration, *pywsServer, error) {
		srv, err := startPyws(cfg.bin, root, filepath.Join(dir, state), args...)
		if err != nil {
			return 0, nil, err
		}
		d, n, err := srv.firstReferences(root, c, limit)
		if err == nil {
			err = srv.waitIndexed(limit)
		}
		if err == nil && keep != nil {
			err = keep(srv)
		}
		srv.stop()
		r.refs = n
		return d, srv, err
	}
	var err error
	var srv *pywsServer
	if r.cold, srv, err = refs("state", serving, servingArgs...); err != nil {
		return r, err
	}
	r.build = srv.indexBuild()
	if r.unprepared, _, err = refs("unprepared", nil, "--prepared", ""); err != nil {
		return r, err
	}
	for _, host := range []string{"host-early", "host"} {
		if err := copyDirs(filepath.Join(dir, "unprepared"), filepath.Join(dir, host), "compile-cache", "stubs", "interpreters"); err != nil {
			return r, err
		}
	}
	line, char, err := importedName(filepath.Join(root, earlyQueried[c.Name]))
	if err != nil {
		return r, err
	}
	if srv, err = startPyws(cfg.bin, root, filepath.Join(dir, "host-early"), "--prepared", ""); err != nil {
		return r, err
	}
	r.early, err = srv.firstDefinition(position(root, earlyQueried[c.Name], line, char), limit)
	srv.stop()
	if err != nil {
		return r, err
	}
	if r.newWorkspace, srv, err = refs("host", nil, "--prepared", ""); err != nil {
		return r, err
	}
	r.newBuild = srv.indexBuild()
	r.restart, _, err = refs("state", nil)
	return r, err
}

// importedName is the position of the first name of the last one-line
// `from m import n` before the module's first class or def: a query
// whose answer is in another module.
func importedName(path string) (line, char int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	line = -1
	sc := bufio.NewScanner(bytes.NewReader(b))
	for i := 0; sc.Scan(); i++ {
		t := sc.Text()
		if strings.HasPrefix(t, "class ") || strings.HasPrefix(t, "def ") {
			break
		}
		if k := strings.Index(t, " import "); strings.HasPrefix(t, "from ") && k > 0 && !strings.Contains(t, "(") {
			line, char = i, k+len(" import ")
		}
	}
	if line < 0 {
		return 0, 0, fmt.Errorf("%s: no `from m import n` before its first class or def", path)
	}
	return line, char, nil
}

// firstDefinition polls get_definition at pos until it answers with a
// location and returns the time from the server's launch.
func (s *pywsServer) firstDefinition(pos map[string]any, limit time.Duration) (time.Duration, error) {
	deadline := s.start.Add(limit)
	for time.Now().Before(deadline) {
		status, body, err := s.call("get_definition", pos)
		if locs, _ := body["locations"].([]any); err == nil && status == 200 {
			if len(locs) == 0 {
				return 0, fmt.Errorf("no definition at %v", pos)
			}
			return time.Since(s.start), nil
		}
		if s.cmd.ProcessState != nil {
			return 0, fmt.Errorf("server exited:\n%s", s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("no definition within %v:\n%s", limit, s.logText())
}

// medianRun is the median of each figure over runs.
func medianRun(runs []startupRun) startupRun {
	pick := func(f func(startupRun) time.Duration) time.Duration {
		d := make([]time.Duration, len(runs))
		for i, r := range runs {
			d[i] = f(r)
		}
		return median(d)
	}
	return startupRun{
		cold:         pick(func(r startupRun) time.Duration { return r.cold }),
		unprepared:   pick(func(r startupRun) time.Duration { return r.unprepared }),
		newWorkspace: pick(func(r startupRun) time.Duration { return r.newWorkspace }),
		early:        pick(func(r startupRun) time.Duration { return r.early }),
		restart:      pick(func(r startupRun) time.Duration { return r.restart }),
		build:        pick(func(r startupRun) time.Duration { return r.build }),
		newBuild:     pick(func(r startupRun) time.Duration { return r.newBuild }),
		refs:         runs[0].refs,
	}
}

// median of d (sorted in place), 0 for none.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// spread notes a median's runs: "median of 3, 1.02-1.31 s"; "" for one.
func spread(runs []startupRun, f func(startupRun) time.Duration) string {
	if len(runs) < 2 {
		return ""
	}
	lo, hi := f(runs[0]), f(runs[0])
	for _, r := range runs[1:] {
		lo, hi = min(lo, f(r)), max(hi, f(r))
	}
	return fmt.Sprintf("median of %d, %s-%s", len(runs), timed(lo), timed(hi))
}
