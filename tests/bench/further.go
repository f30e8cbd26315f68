package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/pyws/pyws/tests/differential/pyright"
)

// furtherWorkspace is the issue's "each further workspace of the same
// size": a second copy of the corpus, at another path, served by the same
// server to a second key (`pyws keys add --workspace`). The copy's files
// are byte for byte the first's, so the summary cache, keyed by content,
// summarizes nothing again: what it measures is what a workspace holds
// in the server (its index, its caches), not the workers' summarizing,
// which a different project of the same size would add in time, not in
// what stays resident.
type furtherWorkspace struct {
	root, key, keys string
}

// prepareFurther copies c under dir and writes a keys file with a key
// for the copy, for the server's --keys.
func prepareFurther(bin string, c pyright.Corpus, dir string) (furtherWorkspace, error) {
	var f furtherWorkspace
	root, err := c.CopyTo(filepath.Join(dir, "workspace2"))
	if err != nil {
		return f, err
	}
	f.root, f.keys = root, filepath.Join(dir, "keys.json")
	os.Remove(f.keys)
	out, err := exec.Command(bin, "keys", "add", "--keys", f.keys, "--workspace", root, "--tier", "enterprise").Output()
	if err != nil {
		return f, fmt.Errorf("pyws keys add: %v", err)
	}
	// The key is the last word printed, on a line of its own.
	words := strings.Fields(string(out))
	if len(words) == 0 {
		return f, fmt.Errorf("pyws keys add printed no key")
	}
	f.key = words[len(words)-1]
	return f, nil
}

// serverArgs are what the server needs to serve the second key.
func (f furtherWorkspace) serverArgs() []string { return []string{"--keys", f.keys} }

// serve opens the second workspace on srv, which already serves its
// first (indexed: wantIndexed-1 "workspace indexed" lines so far), asks
// it the corpus's references until complete, waits for its index and
// asks the reference samples there too; it returns the tree's memory
// peaks then.
func (f furtherWorkspace) serve(srv *pywsServer, c pyright.Corpus, samples []pyright.Sample, wantIndexed int) (memoryPeaks, error) {
	limit := 10 * time.Minute
	if _, _, err := srv.firstReferencesAs(f.key, f.root, c, time.Since(srv.start)+limit); err != nil {
		return memoryPeaks{}, fmt.Errorf("second workspace: %v", err)
	}
	if err := srv.waitIndexedN(wantIndexed, limit); err != nil {
		return memoryPeaks{}, fmt.Errorf("second workspace: %v", err)
	}
	for _, smp := range samples {
		if _, _, err := srv.callAs(f.key, "get_references", position(f.root, smp.Rel, smp.Line, smp.Char)); err != nil {
			return memoryPeaks{}, err
		}
	}
	return srv.rss.Peaks(), nil
}

// furtherFigure is what the second workspace added to the peak at one
// instant, against the first's peak (its anchor: at most a half is the
// issue's target).
func furtherFigure(first, both memoryPeaks) figure {
	f := mebibytes(max(both.RSS-first.RSS, 0.1))
	f.note = fmt.Sprintf("the peak at one instant %.0f -> %.0f MiB; Pss %.0f -> %.0f", first.RSS, both.RSS, first.Pss, both.Pss)
	return f
}
