package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rssWatch samples a process tree's memory every 100 ms: the sum of the
// peak resident sets (VmHWM) of the process and its live descendants
// (pyws's plugin workers; pyright's node has its workers as threads).
type rssWatch struct {
	pid  int
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	peak float64         // MiB
	each map[int]float64 // each process's own peak, MiB
}

func watchRSS(pid int) *rssWatch {
	w := &rssWatch{pid: pid, stop: make(chan struct{}), done: make(chan struct{}), each: map[int]float64{}}
	go func() {
		defer close(w.done)
		t := time.NewTicker(100 * time.Millisecond)
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

func (w *rssWatch) sample() {
	var sum float64
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, pid := range treeOf(w.pid) {
		p := statusKiB(pid, "VmHWM:") / 1024
		sum += p
		w.each[pid] = max(w.each[pid], p)
	}
	w.peak = max(w.peak, sum)
}

// Peak samples once more and returns the largest sum seen, MiB.
func (w *rssWatch) Peak() float64 {
	w.sample()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak
}

// Stop ends the sampling (before the process is stopped).
func (w *rssWatch) Stop() float64 {
	p := w.Peak()
	close(w.stop)
	<-w.done
	return p
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

// statusKiB reads one "Key: N kB" line of /proc/PID/status (0 when the
// process is gone).
func statusKiB(pid int, key string) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb)
		}
	}
	return 0
}
