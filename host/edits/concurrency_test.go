package edits

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// TestConcurrentInsertsSameFile: N goroutines insert a line at the top of
// one file; every insert must survive. Half go through a second Engine on
// the same state dir, standing in for a second pyws process: the two share
// only the flock stripes, not the in-process locks.
func TestConcurrentInsertsSameFile(t *testing.T) {
	const n = 40
	root, e1 := newWorkspace(t, map[string]string{"a.py": "end\n"})
	e2, err := Open(e1.stateDir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := e1
			if i%2 == 1 {
				e = e2
			}
			_, err := e.Apply(context.Background(), dirResolver{root}, m(uriOf(root, "a.py"), ins(0, 0, fmt.Sprintf("g%02d\n", i))), Limits{})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSuffix(readFile(t, filepath.Join(root, "a.py")), "\n"), "\n")
	if len(lines) != n+1 || lines[n] != "end" {
		t.Fatalf("got %d lines: %q", len(lines), lines)
	}
	sort.Strings(lines[:n])
	for i := range n {
		if want := fmt.Sprintf("g%02d", i); lines[i] != want {
			t.Fatalf("line %d = %q, want %q", i, lines[i], want)
		}
	}
}

// TestConcurrentOverlappingFileSets: applies over random subsets of a few
// files, listed in random order, must neither deadlock nor lose an append.
func TestConcurrentOverlappingFileSets(t *testing.T) {
	names := []string{"a.py", "b.py", "c.py", "d/e.py"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = ""
	}
	root, e := newWorkspace(t, files)
	const workers, rounds = 8, 10
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[string]int{}
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range rounds {
				changes := map[string][]abi.TextEdit{}
				for _, n := range names {
					if r.IntN(2) == 0 {
						continue
					}
					changes[uriOf(root, n)] = []abi.TextEdit{ins(0, 0, "x\n")}
				}
				if len(changes) == 0 {
					continue
				}
				if _, err := e.Apply(context.Background(), dirResolver{root}, changes, Limits{}); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for u := range changes {
					counts[u]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, n := range names {
		got := strings.Count(readFile(t, filepath.Join(root, n)), "x\n")
		if want := counts[uriOf(root, n)]; got != want {
			t.Errorf("%s: %d inserts, want %d", n, got, want)
		}
	}
}
