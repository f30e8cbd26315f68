package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak is the operator's drill of issue 11: 64 connections of mixed
// requests against a real server while files change behind its back every
// second and a faulty analyzer (tests/plugins/stuckdiag, serving
// get_diagnostics) spins forever on one file, called every 5 s. It first
// runs without the fault (the baseline), then with it.
//
// In `make test` it runs for seconds, with 16 connections, and asserts
// what must always hold:
// the server stays up, nothing but the faulty call answers 5xx, every
// request is answered. `make soak` (PYWS_SOAK=10m) runs it for real and
// also holds the figures to the bars: other tools' p99 within 2x
// of the baseline's and flat memory (server plus workers).
func TestSoak(t *testing.T) {
	full := os.Getenv("PYWS_SOAK")
	faultRun, baseRun := 12*time.Second, 6*time.Second
	if full != "" {
		d, err := time.ParseDuration(full)
		if err != nil {
			t.Fatalf("PYWS_SOAK=%q: %v", full, err)
		}
		faultRun, baseRun = d, max(d/4, 30*time.Second)
	} else if testing.Short() {
		t.Skip("soak: not in -short")
	}
	build(t)
	ws := soakWorkspace(t)
	extra := t.TempDir()
	if out, err := exec.Command(binPath, "plugin", "pack", filepath.Join(repoRoot, "tests/plugins/stuckdiag"), extra).CombinedOutput(); err != nil {
		t.Fatalf("pack stuckdiag: %v\n%s", err, out)
	}
	s := startRaceServer(t, ws, "--plugins", extra, "--log-level", "warn")
	key := s.addKeyReady("enterprise", "")
	eventually(t, 5*time.Minute, "workspace indexed", func() bool {
		r, err := s.try("GET", "/v1/tools/health_check", key, nil)
		return err == nil && jget(r.Body, "workspace", "loaded") == true
	})
	targets := soakTargets(t, ws)
	t.Logf("workspace: %d Python files, %d navigation targets", len(targets.files), len(targets.names))

	// The phases alternate in rounds of about a minute of fault, so noise
	// from the rest of a shared machine falls on both alike.
	rounds := max(1, int(faultRun/time.Minute))
	// `make test` runs this beside every other package on two shared
	// cores, against a server built with -race: there, 64 connections
	// overload the machine until a healthy analyzer's calls wait past
	// their plugin's 2 s in its queue, in the fault-free phase too (seen
	// in two CI runs out of three), which says nothing of the server. The
	// short drill keeps an eighth of them (16 still overloaded it once, with
	// two benchmarks running beside `make test`): still four times the
	// workers, so calls queue; `make soak` runs all 64.
	conns := 64
	if full == "" {
		conns = 8
	}
	base, fault := newSoakPhase("baseline"), newSoakPhase("fault")
	for range rounds {
		runSoakPhase(t, base, s, key, ws, targets, conns, baseRun/time.Duration(rounds), false)
		runSoakPhase(t, fault, s, key, ws, targets, conns, faultRun/time.Duration(rounds), true)
	}
	t.Logf("%d rounds: %d requests without the fault in %v, %d with it in %v", rounds, base.sent, baseRun, fault.sent, faultRun)

	t.Logf("%-18s %8s %8s %8s %8s %8s %6s", "operation", "n", "p50", "p99", "base p99", "ratio", "5xx")
	for _, op := range slices.Sorted(maps.Keys(fault.lat)) {
		bp := base.p99(op)
		fp := fault.p99(op)
		ratio := 0.0
		if bp > 0 {
			ratio = float64(fp) / float64(bp)
		}
		t.Logf("%-18s %8d %8s %8s %8s %8.2f %6d", op, len(fault.lat[op]), fault.p50(op).Round(time.Microsecond),
			fp.Round(time.Microsecond), bp.Round(time.Microsecond), ratio, fault.server5xx[op])
	}
	t.Logf("faulty calls: %d, answered %v, slowest %v", len(fault.faultLat), fault.faultCodes, slices.Max(append(fault.faultLat, 0)))
	t.Logf("rss (server + workers) MB: baseline %v, fault %v", base.rssMB, fault.rssMB)

	for _, ph := range []*soakPhase{base, fault} {
		for op, n := range ph.server5xx {
			if op == faultyTool && ph == fault {
				continue // the faulty plugin's own tool: its TIMEOUTs are the fault
			}
			t.Errorf("%s phase: %s answered 5xx %d times (first: %s)", ph.name, op, n, ph.first5xx[op])
		}
		for _, e := range ph.transport {
			t.Errorf("%s phase: %s", ph.name, e)
		}
	}
	// A faulty call answers TIMEOUT within its plugin's 2 s counted from
	// arrival, plus scheduling slack; it never waits behind the others.
	for _, d := range fault.faultLat {
		if d > 15*time.Second {
			t.Errorf("a call to the stuck plugin took %v", d)
		}
	}
	if len(fault.faultLat) == 0 {
		t.Errorf("the stuck plugin was never called")
	}
	if r, err := s.try("GET", "/v1/tools/health_check", key, nil); err != nil || r.Status != 200 {
		t.Fatalf("server not healthy after the soak: %v %d", err, r.Status)
	}
	if full == "" {
		return
	}
	for _, op := range slices.Sorted(maps.Keys(fault.lat)) {
		if op == faultyTool {
			continue
		}
		if bp, fp := base.p99(op), fault.p99(op); bp > 0 && fp > 2*bp && fp > 20*time.Millisecond {
			t.Errorf("%s: p99 %v with the fault, %v without (more than 2x)", op, fp, bp)
		}
	}
	// Flat memory: the last quarter of the fault run holds no more than
	// the second quarter plus a quarter (and 64 MB for noise).
	if n := len(fault.rssMB); n >= 8 {
		q2 := mean(fault.rssMB[n/4 : n/2])
		q4 := mean(fault.rssMB[3*n/4:])
		if q4 > q2*1.25+64 {
			t.Errorf("memory grows: %0.f MB in the second quarter, %0.f MB in the last", q2, q4)
		}
	}
}

// faultyTool is the tool the stuck plugin serves in the soak: its calls
// queue behind the stuck one within the plugin's own share and may time
// out; every other tool must not notice.
const faultyTool = "get_diagnostics"

type soakTargetSet struct {
	files []string   // workspace-relative .py paths
	names []soakName // module-level def/class names
	small []string   // files small enough to format often
}

type soakName struct {
	rel        string
	line, char int
}

// soakWorkspace copies real code into a fresh workspace: packages of the
// running Python's standard library when there is one (about a hundred
// files of email, json, http, logging, urllib), else the sample project.
// Two extra files: stuck.py for the faulty plugin, and room for new ones.
func soakWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	stdlib := ""
	if out, err := exec.Command("python3", "-c", "import json,os;print(os.path.dirname(os.path.dirname(json.__file__)))").Output(); err == nil {
		stdlib = strings.TrimSpace(string(out))
	}
	copied := 0
	for _, pkg := range []string{"email", "json", "http", "logging", "urllib"} {
		src := filepath.Join(stdlib, pkg)
		if stdlib == "" {
			break
		}
		filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(stdlib, p)
			writeTree(t, ws, map[string]string{filepath.ToSlash(rel): string(b)})
			copied++
			return nil
		})
	}
	if copied == 0 {
		if out, err := exec.Command("cp", "-r", filepath.Join(repoRoot, "examples/sample-project")+"/.", ws).CombinedOutput(); err != nil {
			t.Fatalf("copy sample project: %v %s", err, out)
		}
	}
	writeTree(t, ws, map[string]string{"stuck.py": "def spin():\n    return 1\n"})
	return ws
}

var defLine = regexp.MustCompile(`^(?:def|class) ([A-Za-z_][A-Za-z0-9_]*)`)

func soakTargets(t *testing.T, ws string) soakTargetSet {
	t.Helper()
	var ts soakTargetSet
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") || strings.Contains(p, "stuck") {
			return nil
		}
		rel, _ := filepath.Rel(ws, p)
		rel = filepath.ToSlash(rel)
		b, _ := os.ReadFile(p)
		ts.files = append(ts.files, rel)
		if len(b) < 16<<10 {
			ts.small = append(ts.small, rel)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		n := 0
		for ; sc.Scan(); n++ {
			if m := defLine.FindStringSubmatchIndex(sc.Text()); m != nil {
				ts.names = append(ts.names, soakName{rel: rel, line: n, char: m[2]})
			}
		}
		return nil
	})
	if len(ts.names) == 0 || len(ts.small) == 0 {
		t.Fatalf("no navigation targets in %s", ws)
	}
	return ts
}

type soakPhase struct {
	name       string
	sent       int64 // requests sent
	mu         sync.Mutex
	lat        map[string][]time.Duration
	server5xx  map[string]int
	first5xx   map[string]string
	transport  []string
	faultLat   []time.Duration
	faultCodes map[string]int
	rssMB      []float64
}

func (p *soakPhase) record(op string, d time.Duration, status int, raw []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lat[op] = append(p.lat[op], d)
	if status >= 500 {
		if p.server5xx[op] == 0 {
			p.first5xx[op] = fmt.Sprintf("%d %.300s", status, raw)
		}
		p.server5xx[op]++
	}
}

func (p *soakPhase) quantile(op string, q float64) time.Duration {
	l := slices.Clone(p.lat[op])
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	return l[min(len(l)-1, int(q*float64(len(l))))]
}

func (p *soakPhase) p50(op string) time.Duration { return p.quantile(op, 0.50) }
func (p *soakPhase) p99(op string) time.Duration { return p.quantile(op, 0.99) }

func newSoakPhase(name string) *soakPhase {
	return &soakPhase{name: name, lat: map[string][]time.Duration{}, server5xx: map[string]int{},
		first5xx: map[string]string{}, faultCodes: map[string]int{}}
}

// runSoakPhase drives the server for d, recording into p: conns
// connections of mixed requests, an outside edit every second, and with
// fault a call to the stuck plugin every 5 s; memory is sampled every 2 s.
func runSoakPhase(t *testing.T, p *soakPhase, s *server, key, ws string, ts soakTargetSet, conns int, d time.Duration, fault bool) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	send := func(req *http.Request) (int, []byte, time.Duration, error) {
		req.Header.Set("Authorization", "Bearer "+key)
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, time.Since(start), err
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, raw, time.Since(start), err
	}
	post := func(op string, body any) (int, []byte, time.Duration, error) {
		j, _ := json.Marshal(body)
		rctx, rcancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer rcancel()
		req, _ := http.NewRequestWithContext(rctx, "POST", s.base+"/v1/tools/call", bytes.NewReader(j))
		req.Header.Set("Content-Type", "application/json")
		return send(req)
	}
	get := func(path string) (int, []byte, time.Duration, error) {
		req, _ := http.NewRequest("GET", s.base+path, nil)
		return send(req)
	}
	var sent atomic.Int64
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for ctx.Err() == nil {
				var op string
				var status int
				var raw []byte
				var took time.Duration
				var err error
				n := ts.names[rng.IntN(len(ts.names))]
				pos := map[string]any{"uri": n.rel, "line": n.line, "character": n.char}
				switch r := rng.IntN(100); {
				case r < 15:
					op = "get_hover"
				case r < 30:
					op = "get_definition"
				case r < 45:
					op = "get_references"
				case r < 60:
					op = "read_file"
					status, raw, took, err = get("/v1/resources/file/" + ts.files[rng.IntN(len(ts.files))])
				case r < 65:
					op = "structure"
					status, raw, took, err = get("/v1/resources/structure?maxDepth=2")
				case r < 88:
					op = "get_diagnostics"
					pos = map[string]any{"uri": ts.files[rng.IntN(len(ts.files))]}
				default:
					op = "format_document"
					pos = map[string]any{"uri": ts.small[rng.IntN(len(ts.small))]}
				}
				if status == 0 && err == nil {
					status, raw, took, err = post(op, map[string]any{"name": op, "arguments": pos})
				}
				sent.Add(1)
				if err != nil {
					if ctx.Err() == nil {
						p.mu.Lock()
						p.transport = append(p.transport, fmt.Sprintf("%s: %v", op, err))
						p.mu.Unlock()
					}
					return
				}
				p.record(op, took, status, raw)
			}
		}()
	}
	// Outside edits: a comment appended to a file every second (positions
	// of names stay valid), a new file made or removed every fifth.
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			rel := ts.files[i%len(ts.files)]
			f, err := os.OpenFile(filepath.Join(ws, rel), os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				fmt.Fprintf(f, "# soak edit %d\n", i)
				f.Close()
			}
			if i%5 == 4 {
				extra := filepath.Join(ws, "soak_new_"+strconv.Itoa(i/5%3)+".py")
				if _, err := os.Stat(extra); err == nil {
					os.Remove(extra)
				} else {
					os.WriteFile(extra, []byte("from json import dumps\n\n\ndef soak():\n    return dumps([])\n"), 0o644)
				}
			}
		}
	}()
	if fault {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(5 * time.Second)
			defer tick.Stop()
			for {
				status, raw, took, err := post("stuck", map[string]any{"name": "get_diagnostics", "arguments": map[string]any{"uri": "stuck.py"}})
				p.mu.Lock()
				if err != nil {
					p.transport = append(p.transport, fmt.Sprintf("stuck: %v", err))
				} else {
					var env struct {
						Error struct{ Code string } `json:"error"`
					}
					json.Unmarshal(raw, &env)
					p.faultCodes[fmt.Sprintf("%d %s", status, env.Error.Code)]++
					p.faultLat = append(p.faultLat, took)
				}
				p.mu.Unlock()
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if mb := treeRSSMB(s.cmd.Process.Pid); mb > 0 {
				p.mu.Lock()
				p.rssMB = append(p.rssMB, mb)
				p.mu.Unlock()
			}
		}
	}()
	wg.Wait()
	p.sent += sent.Load()
}

// treeRSSMB sums the resident memory of pid and its descendants (the
// server and its plugin workers), from /proc; 0 where there is no /proc.
func treeRSSMB(pid int) float64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	rss := map[int]float64{}
	for _, e := range entries {
		id, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesized command: state ppid ... rss is
		// field 24 overall (in pages).
		i := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 22 {
			continue
		}
		pp, _ := strconv.Atoi(fields[1])
		pages, _ := strconv.ParseFloat(fields[21], 64)
		parent[id] = pp
		rss[id] = pages * float64(os.Getpagesize()) / (1 << 20)
	}
	total := 0.0
	for id, mb := range rss {
		for p := id; p > 1; p = parent[p] {
			if p == pid {
				total += mb
				break
			}
		}
	}
	return total
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(max(len(xs), 1))
}
