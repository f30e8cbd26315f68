package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rssWatch samples a process tree's memory every 50 ms (pyws's server
// and its plugin workers; pyright's node and any process it starts). Two
// figures come from it:
//   - at the same instant: the largest sum, over the processes alive at
//     one sample, of their resident sets (VmRSS), and of their
//     proportional sets (Pss, /proc/PID/smaps_rollup: a page shared by n
//     processes counts 1/n in each, so the pyws binary's file-backed
//     pages, mapped by the server and every worker, count once). This is
//     what the tree holds at its peak; a spike shorter than 50 ms may be
//     missed. The tree is listed again and Pss read every tenth sample
//     (and at Peaks): listing reads every /proc/PID/stat of the machine
//     (6.5 ms of CPU with 99 processes) and the kernel walks a process's
//     page tables for its Pss (1.5-3.5 ms for a pyws process with its
//     reservations), which every 50 ms would take a fifth of a core from
//     the start-up being timed; between listings the known processes'
//     resident sets are read (20 us each), and the sets plateau at their
//     peak for seconds.
//   - the sum of each live process's own peak (VmHWM), the largest such
//     sum over the samples: the figure of the rounds before, kept beside
//     the new. Each process's peak counts whenever it came, so the sum
//     may be more than the tree ever held at once, and shared pages
//     count once per process.
type rssWatch struct {
	pid  int
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	rss  float64         // MiB, the largest VmRSS sum at one sample
	pss  float64         // MiB, the largest Pss sum at one sample
	hwm  float64         // MiB, the largest sum of the live processes' VmHWM
	at   []float64       // each live process's VmRSS at that sample, the root first
	each map[int]float64 // each process's own peak (VmHWM), MiB
	n    int             // samples taken
	tree []int           // the tree as last listed
}

func watchRSS(pid int) *rssWatch {
	w := &rssWatch{pid: pid, stop: make(chan struct{}), done: make(chan struct{}), each: map[int]float64{}}
	go func() {
		defer close(w.done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			w.sample()
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *rssWatch) sample() { w.sampleAll(false) }

// sampleAll reads every live process's resident set and peak, and lists
// the tree again and reads the Pss at every tenth sample or when withPss.
func (w *rssWatch) sampleAll(withPss bool) {
	var rss, pss, hwm float64
	var each []float64
	w.mu.Lock()
	defer w.mu.Unlock()
	withPss = withPss || w.n%10 == 0
	w.n++
	if withPss {
		w.tree = treeOf(w.pid)
	}
	for _, pid := range w.tree {
		r, h := residentKiB(pid)
		if r == 0 {
			continue // exited meanwhile
		}
		rss += r / 1024
		each = append(each, r/1024)
		if withPss {
			pss += rollupKiB(pid, "Pss:") / 1024
		}
		hwm += h / 1024
		w.each[pid] = max(w.each[pid], h/1024)
	}
	w.hwm = max(w.hwm, hwm)
	if rss > w.rss {
		w.rss, w.at = rss, each
	}
	w.pss = max(w.pss, pss)
}

// memoryPeaks are an rssWatch's figures, MiB.
type memoryPeaks struct {
	RSS, Pss float64   // the largest sums at one instant
	At       []float64 // each process's VmRSS at the RSS peak, the root first
	HWMSum   float64   // the largest sum of the live processes' own peaks
}

// Peaks samples once more and returns the figures so far.
func (w *rssWatch) Peaks() memoryPeaks {
	w.sampleAll(true)
	w.mu.Lock()
	defer w.mu.Unlock()
	return memoryPeaks{RSS: w.rss, Pss: w.pss, At: w.at, HWMSum: w.hwm}
}

// Stop ends the sampling (before the process is stopped).
func (w *rssWatch) Stop() memoryPeaks {
	p := w.Peaks()
	close(w.stop)
	<-w.done
	return p
}

// figure is the peak at one instant (VmRSS summed), with the Pss sum and
// the sum of each process's own peak beside it.
func (p memoryPeaks) figure() figure {
	f := mebibytes(p.RSS)
	f.note = fmt.Sprintf("Pss %.0f MiB; the live processes' own peaks, VmHWM, summed %.0f MiB", p.Pss, p.HWMSum)
	return f
}

// treeOf is pid and its descendants, from /proc/*/stat.
func treeOf(root int) []int {
	parent := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		pid, ppid, ok := parseStat(string(b))
		if ok {
			parent[ppid] = append(parent[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, parent[out[i]]...)
	}
	return out
}

// cpuTime is the CPU time (user + system) a process tree has used: the
// root's own and its reaped children's, and its live descendants'.
func cpuTime(root int) time.Duration {
	var ticks int
	for i, pid := range treeOf(root) {
		ticks += statTicks(pid, i == 0) // the root's reaped children: workers replaced meanwhile
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// serverCPU is the root process's own CPU time, without its workers'.
func serverCPU(root int) time.Duration {
	return time.Duration(statTicks(root, false)) * time.Second / clockTicks
}

// serverRunTime is the time the root process's threads have run, from
// /proc/PID/task/*/schedstat in nanoseconds: /proc/PID/stat counts in
// 10 ms ticks, too coarse for one query. Read before and after a query
// (the workers idle meanwhile), it is the query's CPU cost in the
// server, which the load of a shared machine moves far less than its
// wall time. Threads that ended between the readings are not counted.
func serverRunTime(root int) time.Duration {
	dir := "/proc/" + strconv.Itoa(root) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var ns int64
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			ns += n
		}
	}
	return time.Duration(ns)
}

// statTicks is a process's utime + stime from /proc/PID/stat, and with
// reaped its reaped children's too (cutime, cstime).
func statTicks(pid int, reaped bool) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	line := string(b)
	f := strings.Fields(line[strings.LastIndexByte(line, ')')+1:])
	if len(f) < 15 {
		return 0
	}
	last := 12 // utime, stime
	if reaped {
		last = 14
	}
	ticks := 0
	for _, v := range f[11 : last+1] {
		n, _ := strconv.Atoi(v)
		ticks += n
	}
	return ticks
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times (100 on
// Linux for every architecture pyws runs on).
const clockTicks = 100

// parseStat reads the pid and parent pid of a /proc/PID/stat line; the
// command name in parentheses may hold spaces.
func parseStat(line string) (pid, ppid int, ok bool) {
	open, close := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 0 || close < open {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	fields := strings.Fields(line[close+1:])
	if err != nil || len(fields) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return pid, ppid, err == nil
}

// rollupKiB reads one "Key: N kB" line of /proc/PID/smaps_rollup (0 when
// the process is gone or the kernel has no rollup).
func rollupKiB(pid int, key string) float64 {
	return procKiB("/proc/"+strconv.Itoa(pid)+"/smaps_rollup", key)[0]
}

// statusKiB reads one "Key: N kB" line of /proc/PID/status (0 when the
// process is gone).
func statusKiB(pid int, key string) float64 {
	return procKiB("/proc/"+strconv.Itoa(pid)+"/status", key)[0]
}

// residentKiB is a process's VmRSS and VmHWM from one read of its status.
func residentKiB(pid int) (rss, hwm float64) {
	v := procKiB("/proc/"+strconv.Itoa(pid)+"/status", "VmRSS:", "VmHWM:")
	return v[0], v[1]
}

// procKiB reads the "Key: N kB" lines of keys from file (0 for a key it
// lacks, every one when the file is gone).
func procKiB(file string, keys ...string) []float64 {
	out := make([]float64, len(keys))
	b, err := os.ReadFile(file)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		for i, key := range keys {
			if v, ok := strings.CutPrefix(line, key); ok {
				kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
				out[i] = float64(kb)
			}
		}
	}
	return out
}
