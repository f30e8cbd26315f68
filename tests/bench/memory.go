package main

import (
	"context"
	"fmt"

	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pyws/pyws/tests/differential/pyright"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// measureMemory is PYWS_BENCH_ONLY=memory: the peak RSS rows alone, a
// fresh --state start to a complete references answer and the reference
// queries (Django), with each process's own peak, so a change to memory
// can be measured in a minute instead of the whole run's seven.
func measureMemory(cfg config, c pyright.Corpus) error {
	ctx := context.Background()
	dir := filepath.Join(cfg.scratch, c.Name)
	root, err := c.CopyTo(filepath.Join(dir, "workspace"))
	if err != nil {
		return err
	}
	var samples []pyright.Sample
	if c.Name == "django" {
		s, err := nativeindex.New(ctx)
		if err != nil {
			return err
		}
		if samples, err = pyright.Samples(ctx, s, root, cfg.queries, 1); err != nil {
			return err
		}
	}
	var further *furtherWorkspace
	var args []string
	if c.Name == "django" {
		f, err := prepareFurther(cfg.bin, c, dir)
		if err != nil {
			return err
		}
		further, args = &f, f.serverArgs()
	}
	srv, err := startPyws(cfg.bin, root, filepath.Join(dir, "state"), args...)
	if err != nil {
		return err
	}
	defer srv.stop()
	cold, _, err := srv.firstReferences(root, c, 10*time.Minute)
	if err != nil {
		return err
	}
	pid := srv.cmd.Process.Pid
	phases := []string{fmt.Sprintf("server resident %.0f MiB (peak %.0f) at the first complete answer", statusKiB(pid, "VmRSS:")/1024, statusKiB(pid, "VmHWM:")/1024)}
	if err := srv.waitIndexed(10 * time.Minute); err != nil {
		return err
	}
	phases = append(phases, fmt.Sprintf("%.0f (peak %.0f) once the whole index is built", statusKiB(pid, "VmRSS:")/1024, statusKiB(pid, "VmHWM:")/1024))
	for _, smp := range samples {
		if _, _, err := srv.call("get_references", position(root, smp.Rel, smp.Line, smp.Char)); err != nil {
			return err
		}
	}
	if len(samples) > 0 {
		phases = append(phases, fmt.Sprintf("%.0f (peak %.0f) after %d reference queries", statusKiB(pid, "VmRSS:")/1024, statusKiB(pid, "VmHWM:")/1024, len(samples)))
	}
	pk := srv.rss.Peaks()
	var at []string
	for i, r := range pk.At {
		if i == 0 {
			at = append(at, fmt.Sprintf("server %.0f", r))
		} else {
			at = append(at, fmt.Sprintf("%.0f", r))
		}
	}
	fmt.Printf("%s: complete references after %s; peak RSS serving (server + workers at the same instant) %.0f MiB (%s MiB), Pss %.0f MiB; "+
		"the live processes' own peaks (VmHWM) summed %.0f MiB; each process's own peak: %s; %s\n",
		c.Name, timed(cold), pk.RSS, strings.Join(at, ", "), pk.Pss, pk.HWMSum, srv.rss.processes(), strings.Join(phases, ", "))
	if further != nil {
		both, err := further.serve(srv, c, samples, 2)
		if err != nil {
			return err
		}
		f := furtherFigure(pk, both)
		fmt.Printf("%s: a further workspace of the same size adds %.0f MiB to the peak at one instant (%.2f of the first; %s), server %.0f MiB (peak %.0f)\n",
			c.Name, f.value(), f.value()/pk.RSS, f.note, statusKiB(pid, "VmRSS:")/1024, statusKiB(pid, "VmHWM:")/1024)
	}
	return nil
}

// processes lists each process's own peak seen (VmHWM, MiB), the root
// first, then its descendants (exited ones too), largest first.
func (w *rssWatch) processes() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var rest []float64
	for pid, p := range w.each {
		if pid != w.pid {
			rest = append(rest, p)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(rest)))
	parts := []string{fmt.Sprintf("server %.0f", w.each[w.pid])}
	for _, p := range rest {
		parts = append(parts, fmt.Sprintf("%.0f", p))
	}
	return strings.Join(parts, ", ") + " MiB"
}
