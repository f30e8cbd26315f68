// Command bench is `make bench`'s side-by-side run: a real `pyws serve`
// (bin/pyws from `make build`) against pyright's language server, Black,
// pyflakes and Ruff's wasm build, on copies of Debian's Django and the
// CPython standard library, every figure measured in the same run and
// printed as one table (figure | pyws | anchor | ratio), then pyws's
// cold start taken apart. It installs nothing: a missing anchor is
// skipped and the table says so.
//
//	go run ./tests/bench            (from the repository root)
//
// PYWS_BENCH_CORPORA (django,stdlib), PYWS_BENCH_FILES (300 files
// formatted and checked), PYWS_BENCH_QUERIES (200 reference positions),
// PYWS_BENCH_PYRIGHT_BUDGET (3m of pyright queries), PYWS_BENCH_BIN
// (bin/pyws), PYWS_BENCH_ONLY=memory (the peak RSS rows alone, with
// each process's peak), PYWS_PYRIGHT_SERVER and the anchors' variables in
// anchors.go choose otherwise.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/tests/differential/pyright"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

func main() {
	plugins.RunWorkerIfRequested() // the breakdown's indexer runs in workers
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type config struct {
	repo, bin, pyright, scratch string
	files, queries              int
	pyrightBudget               time.Duration
	anchors                     anchors
}

func run() error {
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(repo, "go.mod")); err != nil {
		return fmt.Errorf("run from the repository root: %v", err)
	}
	cfg := config{repo: repo, bin: env("PYWS_BENCH_BIN", filepath.Join(repo, "bin", "pyws")), pyright: pyright.ServerPath(),
		files: envInt("PYWS_BENCH_FILES", 300), queries: envInt("PYWS_BENCH_QUERIES", 200)}
	cfg.pyrightBudget, err = time.ParseDuration(env("PYWS_BENCH_PYRIGHT_BUDGET", "3m"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(cfg.bin); err != nil {
		return fmt.Errorf("%v: run `make build` first", err)
	}
	if cfg.scratch, err = os.MkdirTemp("", "pyws-bench-"); err != nil {
		return err
	}
	defer os.RemoveAll(cfg.scratch)
	cfg.anchors = findAnchors(repo)
	if _, err := os.Stat(cfg.pyright); err != nil {
		cfg.pyright = ""
	}
	fmt.Printf("pyws %s against pyright (%s), on %d cores; ratio = pyws / anchor (below 1: pyws takes less)\n",
		cfg.bin, orMissing(cfg.pyright), runtime.NumCPU())
	for k, why := range cfg.anchors.why {
		fmt.Printf("skipped %s: %s\n", k, why)
	}
	startLoad := loadAverage()
	var rows []row
	type partsOf struct {
		name string
		p    *parts
		serverTimes
	}
	var taken []partsOf
	for _, name := range strings.Split(env("PYWS_BENCH_CORPORA", "django,stdlib"), ",") {
		c, ok := pyright.CorpusNamed(name)
		if !ok {
			return fmt.Errorf("unknown corpus %q", name)
		}
		if !c.Installed() {
			fmt.Printf("skipped %s: %s is not installed\n", name, c.Src)
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s...\n", name)
		if os.Getenv("PYWS_BENCH_ONLY") == "memory" {
			if err := measureMemory(cfg, c); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			continue
		}
		res, err := measureCorpus(cfg, c)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, res.rows...)
		taken = append(taken, partsOf{name, res.parts, res.serverTimes})
	}
	fmt.Printf("\nload average (1, 5, 15 min) at the start %s, at the end %s\n\n", startLoad, loadAverage())
	writeTable(os.Stdout, rows)
	for _, t := range taken {
		if t.p != nil {
			writeParts(os.Stdout, t.name, t.p, t.serverTimes, runtime.NumCPU())
		}
	}
	return nil
}

// loadAverage is /proc/loadavg's first three fields: other work on the
// machine slows every engine's wall time.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

func orMissing(p string) string {
	if p == "" {
		return "not installed: its figures are skipped"
	}
	return p
}

type corpusResult struct {
	rows  []row
	parts *parts
	serverTimes
}

// serverTimes are the server's own figures the parts are set against:
// launch to a complete answer with a fresh --state (cold) and on a warm
// host (newWorkspace), and the index builds it logged in each.
type serverTimes struct {
	cold, build, newWorkspace, newBuild time.Duration
}

// measureCorpus runs every figure of one corpus: pyws cold and warm,
// pyright, and for Django the queries, formatting and diagnostics.
func measureCorpus(cfg config, c pyright.Corpus) (*corpusResult, error) {
	ctx := context.Background()
	dir := filepath.Join(cfg.scratch, c.Name)
	root, err := c.CopyTo(filepath.Join(dir, "workspace"))
	if err != nil {
		return nil, err
	}
	res := &corpusResult{}
	title := map[string]string{"django": "Django", "stdlib": "CPython stdlib"}[c.Name]
	django := c.Name == "django"

	var samples []pyright.Sample
	var files []string
	if django {
		s, err := nativeindex.New(ctx)
		if err != nil {
			return nil, err
		}
		if samples, err = pyright.Samples(ctx, s, root, cfg.queries, 1); err != nil {
			return nil, err
		}
		all, err := nativeindex.PythonFiles(filepath.Join(root, c.Sub))(ctx)
		if err != nil {
			return nil, err
		}
		files = sampleFiles(pythonSources(all), cfg.files, 1)
	}

	// pyws, fresh state: the clock runs from the process's launch to a
	// complete references answer.
	state := filepath.Join(dir, "state")
	srv, err := startPyws(cfg.bin, root, state)
	if err != nil {
		return nil, err
	}
	cold, nrefs, err := srv.firstReferences(root, c, 10*time.Minute)
	if err != nil {
		srv.stop()
		return nil, err
	}
	res.cold, res.build = cold, srv.indexBuild()
	var pywsTimes []time.Duration
	var fmtTime, diagTime time.Duration
	var fmtNote, diagNote string
	if django {
		for _, smp := range samples {
			start := time.Now()
			if _, _, err := srv.call("get_references", position(root, smp.Rel, smp.Line, smp.Char)); err != nil {
				srv.stop()
				return nil, err
			}
			pywsTimes = append(pywsTimes, time.Since(start))
		}
	}
	rssServing := srv.rss.Peak()
	if django {
		fmtTime, fmtNote = srv.perFile("format_document", files)
		diagTime, diagNote = srv.perFile("get_diagnostics", files)
	}
	srv.stop()

	// pyws on a new workspace of a running host: plugins compiled and
	// typeshed summarized in --state already, the workspace never seen.
	hostState := filepath.Join(dir, "host-state")
	if err := copyDirs(state, hostState, "compile-cache", "stubs"); err != nil {
		return nil, err
	}
	if srv, err = startPyws(cfg.bin, root, hostState); err != nil {
		return nil, err
	}
	res.newWorkspace, _, err = srv.firstReferences(root, c, 10*time.Minute)
	res.newBuild = srv.indexBuild()
	srv.stop()
	if err != nil {
		return nil, err
	}

	// pyws restarted on the state the first run left.
	srv, err = startPyws(cfg.bin, root, state)
	if err != nil {
		return nil, err
	}
	warm, _, err := srv.firstReferences(root, c, 10*time.Minute)
	srv.stop()
	if err != nil {
		return nil, err
	}

	// pyright on the same copy.
	var pyCold, pyRSS figure
	var pyTimes []time.Duration
	if cfg.pyright == "" {
		pyCold, pyRSS = missing("pyright not installed"), missing("pyright not installed")
	} else {
		tm, client, err := pyright.FirstReferences(cfg.pyright, root, c)
		if err != nil {
			pyCold, pyRSS = missing(err.Error()), missing("no run")
		} else {
			pyCold = timed(tm.Complete)
			pyCold.note = fmt.Sprintf("%d refs; its first answer %s with %d", tm.Count, timed(tm.First), tm.FirstCount)
			rss := watchRSS(client.Pid())
			deadline := time.Now().Add(cfg.pyrightBudget)
			for _, smp := range samples {
				if time.Now().After(deadline) {
					break
				}
				start := time.Now()
				client.References(filepath.Join(root, smp.Rel), smp.Line, smp.Char, true)
				pyTimes = append(pyTimes, time.Since(start))
			}
			pyRSS = mebibytes(rss.Stop())
			client.Close()
		}
	}

	coldFig := timed(cold)
	coldFig.note = fmt.Sprintf("%d refs", nrefs)
	res.rows = append(res.rows,
		row{title + ", cold start to first complete get_references answer", coldFig, "pyright", pyCold},
		row{title + ", new workspace on a warm host (plugins compiled, typeshed summarized)", timed(res.newWorkspace), "pyright", pyCold},
		row{title + ", warm restart (persisted index) to a references answer", timed(warm), "pyright cold (it persists nothing)", pyCold},
	)
	if django {
		p50, p99 := percentiles(pywsTimes)
		q50, q99 := percentiles(pyTimes)
		n := func(f figure, k int) figure { f.note = fmt.Sprintf("n=%d", k); return f }
		pyP50, pyP99 := n(timed(q50), len(pyTimes)), n(timed(q99), len(pyTimes))
		if len(pyTimes) == 0 {
			pyP50, pyP99 = pyCold, pyCold
		}
		res.rows = append(res.rows,
			row{"get_references p50, Django (over HTTP; LSP for pyright)", n(timed(p50), len(pywsTimes)), "pyright", pyP50},
			row{"get_references p99, Django", n(timed(p99), len(pywsTimes)), "pyright", pyP99},
		)
		fmtFig, diagFig := timed(fmtTime), timed(diagTime)
		fmtFig.note, diagFig.note = fmtNote, diagNote
		label := fmt.Sprintf("%d Django files", len(files))
		res.rows = append(res.rows,
			row{"format_document, " + label + " (one request at a time)", fmtFig, "Black (one worker)", cfg.anchors.blackFormat(files, dir)},
			row{"format_document, " + label, fmtFig, "Ruff format (wasm, one thread)", cfg.anchors.ruff(cfg.repo, "format", files, dir)},
			row{"get_diagnostics, " + label + " (one request at a time)", diagFig, "pyflakes (one process)", cfg.anchors.pyflakes(files)},
			row{"get_diagnostics, " + label, diagFig, "Ruff check (wasm, one thread)", cfg.anchors.ruff(cfg.repo, "check", files, dir)},
		)
	}
	res.rows = append(res.rows, row{"peak RSS serving " + title + " (server + workers, VmHWM)", mebibytes(rssServing), "pyright (node)", pyRSS})

	if res.parts, err = measureParts(ctx, cfg.repo, root, dir); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s: cold start parts: %v\n", c.Name, err)
	}
	return res, nil
}

// copyDirs copies the named subdirectories of src into dst.
func copyDirs(src, dst string, names ...string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	for _, n := range names {
		if out, err := exec.Command("cp", "-r", filepath.Join(src, n), filepath.Join(dst, n)).CombinedOutput(); err != nil {
			return fmt.Errorf("copy %s: %v %s", n, err, out)
		}
	}
	return nil
}

// perFile calls tool once per file, one request at a time, and returns
// the total time and a note with the CPU time of the server and its
// workers and the count of answers that were not 200.
func (s *pywsServer) perFile(tool string, files []string) (time.Duration, string) {
	var total time.Duration
	failed := 0
	cpu := cpuTime(s.cmd.Process.Pid)
	for _, f := range files {
		start := time.Now()
		status, _, err := s.call(tool, map[string]any{"uri": "file://" + f})
		total += time.Since(start)
		if err != nil || status != 200 {
			failed++
		}
	}
	note := cpuNote(cpuTime(s.cmd.Process.Pid) - cpu)
	if failed > 0 {
		note += fmt.Sprintf(", %d not 200", failed)
	}
	return total, note
}
