package index

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/wasm/stdlibcorpus"
)

func TestMain(m *testing.M) {
	plugins.RunWorkerIfRequested() // benchmarks run the indexer plugin in workers
	os.Exit(m.Run())
}

// pluginSummarizer runs the real indexer plugin (the service's adapter,
// reduced to what benchmarks need).
type pluginSummarizer struct {
	rt *plugins.Runtime
}

func (p pluginSummarizer) Version() string { return p.rt.PluginSHA256("index_files") }

func (p pluginSummarizer) Summarize(ctx context.Context, t Target, files []Source) ([][]byte, error) {
	t = t.withDefaults()
	req := &abi.Request{Tool: "index_files", Arguments: json.RawMessage(fmt.Sprintf(`{"pythonMinor":%d,"platform":%q}`, t.Minor, t.Platform))}
	for _, f := range files {
		req.Files = append(req.Files, abi.File{URI: "file:///" + f.Rel, Path: f.Rel, Source: f.Text})
	}
	lane := "index"
	if IsEarly(ctx) {
		lane = "index-early" // as the service queues them
	}
	raw, err := p.rt.Call(plugins.WithTenant(ctx, lane), "index_files", req)
	if err != nil {
		return nil, err
	}
	var res struct{ Summaries [][]byte }
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	return res.Summaries, nil
}

var (
	rtOnce sync.Once
	rtInst *plugins.Runtime
	rtErr  error
)

// indexerRuntime starts the plugin runtime with the indexer: the packed
// one in bin/plugins (make build), else packed now into a temp dir.
func indexerRuntime(b *testing.B) *plugins.Runtime {
	b.Helper()
	rtOnce.Do(func() {
		dir := filepath.Join("..", "..", "bin", "plugins", "indexer")
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
			tmp, err := os.MkdirTemp("", "pyws-bench-plugins-")
			if err != nil {
				rtErr = err
				return
			}
			if _, err := plugins.Pack(context.Background(), filepath.Join("..", "..", "plugins", "indexer"), tmp); err != nil {
				rtErr = err
				return
			}
			dir = filepath.Join(tmp, "indexer")
		}
		cache, _ := os.MkdirTemp("", "pyws-bench-wazero-")
		rtInst, rtErr = plugins.Start(context.Background(), plugins.Config{Dirs: []string{dir}, CacheDir: cache, DefaultTimeout: 60 * time.Second, MemoryLimitMiB: 512})
	})
	if rtErr != nil {
		b.Fatal(rtErr)
	}
	return rtInst
}

// benchWorkspace is a workspace root and the files of it to index.
type benchWorkspace struct {
	name, root, sub string
}

var benchWorkspaces = []benchWorkspace{
	{"django", "/usr/lib/python3/dist-packages", "django"},
	{"stdlib", "/usr/lib/python3.11", ""},
}

func (w benchWorkspace) files(ctx context.Context) ([]string, error) {
	all, err := dirFiles(filepath.Join(w.root, w.sub))(ctx)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, p := range all {
		if !strings.Contains(p, "/site-packages/") && !strings.Contains(p, "/dist-packages/") || w.sub != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

func (w benchWorkspace) skipIfMissing(b *testing.B) {
	if _, err := os.Stat(filepath.Join(w.root, w.sub)); err != nil {
		b.Skipf("%s not installed", w.name)
	}
}

func (w benchWorkspace) index(b *testing.B, s Summarizer, cacheDir string) *Index {
	return New(Config{Root: w.root, Files: w.files, Read: os.ReadFile, Summarizer: s, CacheDir: cacheDir})
}

// peakRSS is this process's peak resident set (VmHWM) in MiB.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkColdIndex indexes a workspace from nothing through the indexer
// plugin (worker processes, the kernel's batching and linking): the time
// to a usable index, the heap it keeps, and the kernel's peak RSS.
func BenchmarkColdIndex(b *testing.B) {
	for _, w := range benchWorkspaces {
		b.Run(w.name, func(b *testing.B) {
			w.skipIfMissing(b)
			s := pluginSummarizer{rt: indexerRuntime(b)}
			var x *Index
			for b.Loop() {
				x = w.index(b, s, "")
				if err := x.Build(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(x.FileCount()), "files")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
			b.ReportMetric(peakRSS(), "peakRSS-MiB")
			runtime.KeepAlive(x)
		})
	}
}

// BenchmarkWarmRestart builds an index whose summaries are all in the
// disk cache: a restart of the server on an unchanged workspace.
func BenchmarkWarmRestart(b *testing.B) {
	for _, w := range benchWorkspaces {
		b.Run(w.name, func(b *testing.B) {
			w.skipIfMissing(b)
			s := pluginSummarizer{rt: indexerRuntime(b)}
			cache := b.TempDir()
			if err := w.index(b, s, cache).Build(context.Background()); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				x := w.index(b, s, cache)
				if err := x.Build(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sampleHits picks n occurrences that resolve to a workspace symbol,
// seeded, as (file, line, character).
func sampleHits(x *Index, n int, seed int64) [][3]any {
	var all [][3]any
	for _, f := range x.sorted {
		for i, o := range f.S.Occs {
			if f.occKeys[i] >= 0 {
				all = append(all, [3]any{f.Abs, int(o.Line), int(o.Col)})
			}
		}
	}
	r := rand.New(rand.NewSource(seed))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if len(all) > n {
		// A copy: all[:n] would keep every occurrence's position alive
		// (14 MiB on Django), which BenchmarkTypeModelHeap counted as
		// the type model's.
		all = append([][3]any(nil), all[:n]...)
	}
	return all
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
}

// benchQueries times 200 sampled queries the way the service runs them:
// Refresh (a stat per workspace file), the position lookup, then op;
// cpu-total-ms is the process CPU of the last pass, the collector's
// share included.
func benchQueries(b *testing.B, op func(x *Index, h *Hit) error) {
	w := benchWorkspaces[0]
	w.skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	x := w.index(b, s, b.TempDir())
	if err := x.Build(context.Background()); err != nil {
		b.Fatal(err)
	}
	hits := sampleHits(x, 200, 1)
	var times, cpu []time.Duration
	for b.Loop() {
		times, cpu = times[:0], cpu[:0]
		for _, hp := range hits {
			start, run := time.Now(), processCPU()
			if err := x.Refresh(context.Background()); err != nil {
				b.Fatal(err)
			}
			h := x.At(hp[0].(string), hp[1].(int), hp[2].(int))
			if h == nil {
				b.Fatalf("nothing at %v", hp)
			}
			if err := op(x, h); err != nil && !strings.Contains(err.Error(), "NAME_CONFLICT") && !strings.Contains(err.Error(), "CANNOT_RENAME") {
				b.Fatal(fmt.Errorf("%v: %w", hp, err))
			}
			times = append(times, time.Since(start))
			cpu = append(cpu, processCPU()-run)
		}
	}
	p50, p99 := percentiles(times)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	var total time.Duration
	for _, c := range cpu {
		total += c
	}
	b.ReportMetric(float64(total.Microseconds())/1000, "cpu-total-ms")
	p50, p99 = percentiles(cpu)
	b.ReportMetric(float64(p50.Microseconds())/1000, "cpu-p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "cpu-p99-ms")
}

// processCPU is the CPU time this process has used (user + system).
// Read around one query it is that query's cost with the collector's
// share, which a shared machine's load moves far less than the wall
// time: the p99 of wall times here follows the load average.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReferences: get_references over 200 sampled Django positions.
func BenchmarkReferences(b *testing.B) {
	benchQueries(b, func(x *Index, h *Hit) error {
		_, err := x.References(context.Background(), h, true)
		return err
	})
}

// BenchmarkRename: rename_symbol over 200 sampled Django positions.
func BenchmarkRename(b *testing.B) {
	benchQueries(b, func(x *Index, h *Hit) error {
		_, err := x.Rename(context.Background(), h, "renamed_symbol_x")
		return err
	})
}

// dirFiles lists the Python files under root.
func dirFiles(root string) func(context.Context) ([]string, error) {
	return func(context.Context) ([]string, error) {
		var out []string
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "__pycache__" || strings.HasPrefix(d.Name(), ".")) && p != root {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
				out = append(out, p)
			}
			return nil
		})
		sort.Strings(out)
		return out, err
	}
}

// BenchmarkFindSymbols: find_symbols over the standard library (limit
// 50): 200 queries, seeded, from the names it holds (a name's first
// three letters, its hump initials, a substring, the whole name), timed
// one by one as the service runs them; table-ms is the first search
// after the first link, which builds the symbol table, relinked-table-ms
// the first after a relink, which reuses the parts of unchanged files.
func BenchmarkFindSymbols(b *testing.B) {
	// The interpreter's standard library (the corpus the parser and
	// summarizer benchmarks use), summaries cached across runs.
	// Read appends a comment to the file named edited, as a save would.
	w := benchWorkspace{name: "stdlib", root: stdlibcorpus.Dir(b)}
	var edited string
	read := func(abs string) ([]byte, error) {
		text, err := os.ReadFile(abs)
		if abs == edited {
			text = append(text, "\n# saved\n"...)
		}
		return text, err
	}
	x := New(Config{Root: w.root, Files: w.files, Read: read, Summarizer: pluginSummarizer{rt: indexerRuntime(b)},
		CacheDir: filepath.Join(os.TempDir(), "pyws-bench-stdlib-summaries")})
	if err := x.Build(context.Background()); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	x.FindSymbols("x", "", 50)
	table := time.Since(start)
	// After a relink (a file saved), unchanged files keep their part.
	gen := x.gen
	edited = x.sorted[0].Abs
	if err := x.RefreshFile(context.Background(), edited); err != nil {
		b.Fatal(err)
	}
	start = time.Now()
	x.FindSymbols("x", "", 50)
	retable := time.Since(start)
	if x.gen == gen {
		b.Fatal("no relink")
	}
	var syms []Symbol
	for _, p := range x.symtab.order {
		syms = append(syms, p.syms...)
	}
	r := rand.New(rand.NewSource(1))
	var queries []string
	for len(queries) < 200 {
		name := syms[r.Intn(len(syms))].Name
		humps := humpStarts(name)
		var initials []byte
		for _, h := range humps {
			initials = append(initials, name[h])
		}
		mid := name[len(name)/3:]
		queries = append(queries, name[:min(3, len(name))], string(initials), mid[:min(4, len(mid))], name)
	}
	var times []time.Duration
	for b.Loop() {
		times = times[:0]
		for _, q := range queries {
			start := time.Now()
			x.FindSymbols(q, "", 50)
			times = append(times, time.Since(start))
		}
	}
	p50, p99 := percentiles(times)
	b.ReportMetric(float64(len(syms)), "symbols")
	b.ReportMetric(float64(table.Microseconds())/1000, "table-ms")
	b.ReportMetric(float64(retable.Microseconds())/1000, "relinked-table-ms")
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}

// BenchmarkEarlyAnswer starts a cold build (nothing cached) and asks at
// once for a definition in a file deep in the workspace, as a query
// arriving right after start-up does: the time to that answer, against
// the build's. file: anywhere in the file (index.Early, every import
// followed); imported-name: at the name tests/bench's start-up row asks
// (index.EarlyAt), the first of the last one-line `from m import n`
// before the first class or def.
func BenchmarkEarlyAnswer(b *testing.B) {
	queried := map[string]string{"django": "django/db/models/query.py", "stdlib": "json/decoder.py"}
	for _, w := range benchWorkspaces {
		for _, at := range []string{"file", "imported-name", "references"} {
			b.Run(w.name+"/"+at, func(b *testing.B) {
				w.skipIfMissing(b)
				s := pluginSummarizer{rt: indexerRuntime(b)}
				abs := filepath.Join(w.root, queried[w.name])
				line, char := -1, 0
				if at == "imported-name" {
					line, char = lastImportedName(b, abs)
				}
				if at == "references" {
					abs, line, char = filepath.Join(w.root, w.sub, refsQueried[w.name].rel), refsQueried[w.name].line, refsQueried[w.name].char
				}
				var early, build time.Duration
				for b.Loop() {
					ctx := context.Background()
					x := w.index(b, s, b.TempDir())
					start := time.Now()
					built := make(chan error, 1)
					go func() { built <- x.Build(ctx) }()
					if at == "references" {
						var refs int
						ok, err := x.EarlyComplete(ctx, abs, line, char, func(e *Index, h *Hit) error {
							locs, err := e.References(ctx, h, true)
							refs = len(locs)
							b.ReportMetric(float64(e.FileCount()), "early-files")
							return err
						})
						if err != nil || !ok {
							b.Fatalf("no early references: %v, %v", ok, err)
						}
						early = time.Since(start)
						b.ReportMetric(float64(refs), "refs")
						if err := <-built; err != nil {
							b.Fatal(err)
						}
						build = time.Since(start)
						continue
					}
					e, err := x.EarlyAt(ctx, abs, line, char)
					if err != nil {
						b.Fatal(err)
					}
					early = time.Since(start)
					if e == nil {
						b.Fatal("the build finished before the early answer")
					}
					if h := e.At(abs, max(line, 0), char); h == nil {
						b.Logf("nothing at %s:%d:%d", abs, line, char)
					} else if locs, err := e.Definition(h); line >= 0 && (err != nil || len(locs) == 0) {
						b.Fatalf("no definition at %s:%d:%d: %v", abs, line, char, err)
					}
					if err := <-built; err != nil {
						b.Fatal(err)
					}
					build = time.Since(start)
					b.ReportMetric(float64(e.FileCount()), "early-files")
				}
				b.ReportMetric(float64(early.Milliseconds()), "early-ms")
				b.ReportMetric(float64(build.Milliseconds()), "build-ms")
			})
		}
	}
}

// refsQueried is tests/bench's references symbol (pyright.Corpora's,
// under the workspace's sub directory): class Model, def get_running_loop.
var refsQueried = map[string]struct {
	rel        string
	line, char int
}{"django": {"db/models/base.py", 403, 6}, "stdlib": {"asyncio/events.py", 715, 4}}

// lastImportedName is tests/bench's importedName: the first name of the
// last one-line `from m import n` before the first class or def.
func lastImportedName(b *testing.B, path string) (line, char int) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	line = -1
	for i, t := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(t, "class ") || strings.HasPrefix(t, "def ") {
			break
		}
		if k := strings.Index(t, " import "); strings.HasPrefix(t, "from ") && k > 0 && !strings.Contains(t, "(") {
			line, char = i, k+len(" import ")
		}
	}
	if line < 0 {
		b.Fatalf("%s: no one-line from-import before its first class or def", path)
	}
	return line, char
}

// BenchmarkSignatureHelp: get_signature_help at 200 sampled call
// argument lists of Django (just after each "("), with Refresh first as
// the service runs it; the evaluator's memo warms over the iterations.
func BenchmarkSignatureHelp(b *testing.B) {
	w := benchWorkspaces[0]
	w.skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	x := w.index(b, s, b.TempDir())
	if err := x.Build(context.Background()); err != nil {
		b.Fatal(err)
	}
	var all [][3]any
	for _, f := range x.sorted {
		for _, c := range f.S.Calls {
			all = append(all, [3]any{f.Abs, int(c.Open.Line), int(c.Open.Col)})
		}
	}
	r := rand.New(rand.NewSource(1))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	all = all[:min(200, len(all))]
	var times []time.Duration
	answered := 0
	for b.Loop() {
		times, answered = times[:0], 0
		for _, p := range all {
			start := time.Now()
			if err := x.Refresh(context.Background()); err != nil {
				b.Fatal(err)
			}
			if sh := x.SignatureHelp(context.Background(), p[0].(string), p[1].(int), p[2].(int)); len(sh.Signatures) > 0 {
				answered++
			}
			times = append(times, time.Since(start))
		}
	}
	p50, p99 := percentiles(times)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(answered), "answered")
}
