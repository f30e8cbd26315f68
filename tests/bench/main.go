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
// formatted and checked), PYWS_BENCH_ONLY=guests (only the
// format_document and get_diagnostics rows, against their anchors),
// PYWS_BENCH_QUERIES (200 reference positions),
// PYWS_BENCH_PYRIGHT_BUDGET (3m of pyright queries), PYWS_BENCH_BIN
// (bin/pyws), PYWS_BENCH_ONLY=memory (the peak RSS rows alone, with
// each process's peak), PYWS_PYRIGHT_SERVER and the anchors' variables in
// anchors.go choose otherwise. Flags: -startup (or
// PYWS_BENCH_ONLY=startup) runs the start-up rows only (pyws cold,
// unprepared, new workspace, early answer, restart; pyright's first
// references), -runs N takes every start-up figure N times and prints
// medians.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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
	files, queries, runs        int
	startupOnly                 bool
	guestsOnly                  bool // PYWS_BENCH_ONLY=guests
	pyrightBudget               time.Duration
	anchors                     anchors
}

func run() error {
	startupOnly := flag.Bool("startup", false, "only the start-up rows: pyws cold, unprepared, new workspace, early answer and restart, and pyright's first references")
	runs := flag.Int("runs", 1, "take each start-up figure this many times and print the medians")
	flag.Parse()
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(repo, "go.mod")); err != nil {
		return fmt.Errorf("run from the repository root: %v", err)
	}
	cfg := config{repo: repo, bin: env("PYWS_BENCH_BIN", filepath.Join(repo, "bin", "pyws")), pyright: pyright.ServerPath(),
		files: envInt("PYWS_BENCH_FILES", 300), queries: envInt("PYWS_BENCH_QUERIES", 200), runs: max(1, *runs), startupOnly: *startupOnly}
	switch only := os.Getenv("PYWS_BENCH_ONLY"); only {
	case "":
	case "startup":
		cfg.startupOnly = true
	case "guests":
		cfg.guestsOnly = true
	case "memory": // measureMemory, per corpus
	default:
		return fmt.Errorf("PYWS_BENCH_ONLY=%q: the parts that run alone are \"startup\", \"guests\" and \"memory\"", only)
	}
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
		if cfg.guestsOnly && name != "django" {
			continue // the analyzers' rows are Django's
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
// launch to a complete answer with a fresh --state and nothing prepared
// (cold) and on a warm host (newWorkspace), and the index builds it
// logged in each.
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
	if django && !cfg.startupOnly && !cfg.guestsOnly {
		s, err := nativeindex.New(ctx)
		if err != nil {
			return nil, err
		}
		if samples, err = pyright.Samples(ctx, s, root, cfg.queries, 1); err != nil {
			return nil, err
		}
	}
	if django && !cfg.startupOnly {
		all, err := nativeindex.PythonFiles(filepath.Join(root, c.Sub))(ctx)
		if err != nil {
			return nil, err
		}
		files = sampleFiles(pythonSources(all), cfg.files, 1)
	}

	// pyws's start-up figures, cfg.runs times; the first cold server
	// also serves the queries, formatting and diagnostics.
	var pywsTimes, pywsCPU []time.Duration
	var fmtTime, diagTime time.Duration
	var fmtNote, diagNote string
	var rssServing memoryPeaks
	// Django's first server also serves a second copy, for what a
	// further workspace of the same size costs (furtherWorkspace).
	var further *furtherWorkspace
	var servingArgs []string
	furtherFig := missing("not measured")
	if django && !cfg.startupOnly && !cfg.guestsOnly {
		f, err := prepareFurther(cfg.bin, c, dir)
		if err != nil {
			return nil, err
		}
		further, servingArgs = &f, f.serverArgs()
	}
	serving := func(srv *pywsServer) error {
		if django {
			for _, smp := range samples {
				start, run := time.Now(), serverRunTime(srv.cmd.Process.Pid)
				if _, _, err := srv.call("get_references", position(root, smp.Rel, smp.Line, smp.Char)); err != nil {
					return err
				}
				pywsTimes = append(pywsTimes, time.Since(start))
				pywsCPU = append(pywsCPU, serverRunTime(srv.cmd.Process.Pid)-run)
			}
		}
		rssServing = srv.rss.Peaks()
		if further != nil {
			both, err := further.serve(srv, c, samples, 2)
			if err != nil {
				return err
			}
			furtherFig = furtherFigure(rssServing, both)
		}
		if django {
			fmtTime, fmtNote = srv.perFile("format_document", files)
			diagTime, diagNote = srv.perFile("get_diagnostics", files)
		}
		return nil
	}
	if cfg.startupOnly {
		serving = nil
	}
	if cfg.guestsOnly {
		// Only the analyzers' rows: one server, indexed first as in the
		// full run, so the requests find the same warm workspace.
		serving = func(srv *pywsServer) error {
			fmtTime, fmtNote = srv.perFile("format_document", files)
			diagTime, diagNote = srv.perFile("get_diagnostics", files)
			return nil
		}
		if _, err := measureStartup(cfg, c, root, filepath.Join(dir, "run0"), serving); err != nil {
			return nil, err
		}
		return &corpusResult{rows: guestRows(cfg, files, dir, fmtTime, fmtNote, diagTime, diagNote)}, nil
	}
	var runs []startupRun
	for i := range cfg.runs {
		fmt.Fprintf(os.Stderr, "bench: %s: pyws start-up, run %d of %d...\n", c.Name, i+1, cfg.runs)
		r, err := measureStartup(cfg, c, root, filepath.Join(dir, fmt.Sprint("run", i)), serving, servingArgs...)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
		serving, servingArgs = nil, nil
	}
	st := medianRun(runs)
	res.serverTimes = serverTimes{cold: st.unprepared, build: st.build, newWorkspace: st.newWorkspace, newBuild: st.newBuild}
	noted := func(f func(startupRun) time.Duration) figure {
		fig := timed(f(st))
		fig.note = spread(runs, f)
		return fig
	}

	// pyright on the same copy, cfg.runs times; its queries after the
	// first.
	var pyCold, pyFirst, pyRSS figure
	var pyTimes []time.Duration
	if cfg.pyright == "" {
		pyCold, pyFirst, pyRSS = missing("pyright not installed"), missing("pyright not installed"), missing("pyright not installed")
	}
	var pyRuns []pyright.Timing
	for i := 0; cfg.pyright != "" && i < cfg.runs; i++ {
		fmt.Fprintf(os.Stderr, "bench: %s: pyright, run %d of %d...\n", c.Name, i+1, cfg.runs)
		start := time.Now()
		client, err := pyright.Start(cfg.pyright, root)
		var tm pyright.Timing
		var rss *rssWatch
		if err == nil {
			// Watched from its launch, as pyws's server is: its peak may
			// come while it analyses, before the queries.
			rss = watchRSS(client.Pid())
			tm, err = client.FirstReferences(start, root, c)
		}
		if err != nil {
			if rss != nil {
				rss.Stop()
			}
			pyCold, pyFirst, pyRSS = missing(err.Error()), missing(err.Error()), missing("no run")
			break
		}
		pyRuns = append(pyRuns, tm)
		if i > 0 || cfg.startupOnly {
			rss.Stop()
		} else {
			deadline := time.Now().Add(cfg.pyrightBudget)
			for _, smp := range samples {
				if time.Now().After(deadline) {
					break
				}
				start := time.Now()
				client.References(filepath.Join(root, smp.Rel), smp.Line, smp.Char, true)
				pyTimes = append(pyTimes, time.Since(start))
			}
			pyRSS = rss.Stop().figure()
		}
		client.Close()
	}
	if len(pyRuns) > 0 {
		var first []time.Duration
		for _, tm := range pyRuns {
			first = append(first, tm.First)
		}
		// The counts are the median run's: on a busy machine a run may
		// call an early, short list complete.
		slices.SortFunc(pyRuns, func(a, b pyright.Timing) int { return cmp.Compare(a.Complete, b.Complete) })
		tm := pyRuns[len(pyRuns)/2]
		pyCold, pyFirst = timed(tm.Complete), timed(median(first))
		pyCold.note = fmt.Sprintf("%d refs; its first answer %s with %d", tm.Count, pyFirst, tm.FirstCount)
		pyFirst.note = fmt.Sprintf("%d of %d refs", tm.FirstCount, tm.Count)
		if len(pyRuns) > 1 {
			pyCold.note += fmt.Sprintf("; median of %d", len(pyRuns))
		}
	}

	coldFig := noted(func(r startupRun) time.Duration { return r.cold })
	coldFig.note = strings.TrimSuffix(fmt.Sprintf("%d refs; %s", st.refs, coldFig.note), "; ")
	res.rows = append(res.rows,
		row{title + ", cold start to first complete get_references answer (fresh --state, `make build`'s prepared state)", coldFig, "pyright", pyCold},
		row{title + ", the same with nothing prepared (--prepared \"\": plugins compiled, typeshed summarized at start)", noted(func(r startupRun) time.Duration { return r.unprepared }), "pyright", pyCold},
		row{title + ", new workspace on a warm host (plugins compiled, typeshed summarized)", noted(func(r startupRun) time.Duration { return r.newWorkspace }), "pyright", pyCold},
		row{title + ", new workspace on a warm host to a first get_definition answer (" + earlyQueried[c.Name] + ", during the build)", noted(func(r startupRun) time.Duration { return r.early }), "pyright's first references answer", pyFirst},
		row{title + ", warm restart (persisted index) to a references answer", noted(func(r startupRun) time.Duration { return r.restart }), "pyright cold (it persists nothing)", pyCold},
	)
	if cfg.startupOnly {
		return res, nil
	}
	if django {
		p50, p99 := percentiles(pywsTimes)
		c50, c99 := percentiles(pywsCPU)
		q50, q99 := percentiles(pyTimes)
		n := func(f figure, k int) figure { f.note = fmt.Sprintf("n=%d", k); return f }
		// The server's CPU per query beside the wall time: on a loaded
		// machine the wall p99 follows the load.
		cpuNote := func(f figure, c time.Duration) figure {
			f.note += fmt.Sprintf("; server CPU %.2f ms", float64(c.Microseconds())/1000)
			return f
		}
		pyP50, pyP99 := n(timed(q50), len(pyTimes)), n(timed(q99), len(pyTimes))
		if len(pyTimes) == 0 {
			pyP50, pyP99 = pyCold, pyCold
		}
		res.rows = append(res.rows,
			row{"get_references p50, Django (over HTTP; LSP for pyright)", cpuNote(n(timed(p50), len(pywsTimes)), c50), "pyright", pyP50},
			row{"get_references p99, Django", cpuNote(n(timed(p99), len(pywsTimes)), c99), "pyright", pyP99},
		)
		res.rows = append(res.rows, guestRows(cfg, files, dir, fmtTime, fmtNote, diagTime, diagNote)...)
	}
	res.rows = append(res.rows, row{"peak RSS serving " + title + " (server + workers at the same instant, VmRSS summed)", rssServing.figure(), "pyright (node and its children)", pyRSS})
	if further != nil {
		res.rows = append(res.rows, row{"a further workspace of the same size, " + title + " (a second copy, served to a second key by the same server, after the first's reference queries): what it adds to the peak at one instant", furtherFig, "pyws's first workspace (the row above)", rssServing.figure()})
	}

	if res.parts, err = measureParts(ctx, cfg.repo, root, dir); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s: cold start parts: %v\n", c.Name, err)
	}
	return res, nil
}

// guestRows are the format_document and get_diagnostics rows, each
// against its anchors run on the same files.
func guestRows(cfg config, files []string, dir string, fmtTime time.Duration, fmtNote string, diagTime time.Duration, diagNote string) []row {
	fmtFig, diagFig := timed(fmtTime), timed(diagTime)
	fmtFig.note, diagFig.note = fmtNote, diagNote
	label := fmt.Sprintf("%d Django files", len(files))
	return []row{
		{"format_document, " + label + " (one request at a time)", fmtFig, "Black (one worker)", cfg.anchors.blackFormat(files, dir)},
		{"format_document, " + label, fmtFig, "Ruff format (wasm, one thread)", cfg.anchors.ruff(cfg.repo, "format", files, dir)},
		{"get_diagnostics, " + label + " (one request at a time)", diagFig, "pyflakes (one process)", cfg.anchors.pyflakes(files)},
		{"get_diagnostics, " + label, diagFig, "Ruff check (wasm, one thread)", cfg.anchors.ruff(cfg.repo, "check", files, dir)},
	}
}

// copyDirs copies the named subdirectories of src into dst (those src
// has).
func copyDirs(src, dst string, names ...string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(src, n)); os.IsNotExist(err) {
			continue
		}
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
	pid := s.cmd.Process.Pid
	cpu, own := cpuTime(pid), serverCPU(pid)
	for _, f := range files {
		start := time.Now()
		status, _, err := s.call(tool, map[string]any{"uri": "file://" + f})
		total += time.Since(start)
		if err != nil || status != 200 {
			failed++
		}
	}
	all, server := cpuTime(pid)-cpu, serverCPU(pid)-own
	note := fmt.Sprintf("%s: server %.2f s, workers %.2f s", cpuNote(all), server.Seconds(), (all - server).Seconds())
	if failed > 0 {
		note += fmt.Sprintf(", %d not 200", failed)
	}
	return total, note
}
