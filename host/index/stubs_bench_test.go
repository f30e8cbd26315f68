package index

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// benchStubs opens the repository's bin/typeshed (`make stubs`).
func benchStubs(b *testing.B) *typeshed.Stubs {
	b.Helper()
	stubs, err := typeshed.Verify(os.DirFS(filepath.Join("..", "..", "bin", "typeshed")))
	if err != nil {
		b.Skipf("typeshed stubs: %v (run make stubs)", err)
	}
	return stubs
}

// heapAfter returns the live heap growth, in MiB, of keeping what load
// returns.
func heapAfter(load func() any) (float64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := load()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20), kept
}

// BenchmarkStubClosure loads the stubs a link needs through the indexer
// plugin (worker processes): builtins' closure cold (every stub
// summarized), warm (from the disk cache, a new process's view), and
// the closure Django's imports reach; heap-MiB is the live heap the
// loaded units hold.
func BenchmarkStubClosure(b *testing.B) {
	ctx := context.Background()
	stubs := benchStubs(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	target := Target{Minor: 12, Platform: "linux"}
	newSet := func(cache string) *StubSet {
		return NewStubSets(StubConfig{Stubs: stubs, Summarizer: s, CacheDir: cache}).For(target)
	}
	builtins := []string{"builtins"}
	b.Run("builtins/cold", func(b *testing.B) {
		for range b.N {
			got, err := newSet(b.TempDir()).Load(ctx, builtins)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(got)), "modules")
		}
	})
	cache := b.TempDir()
	if _, err := newSet(cache).Load(ctx, builtins); err != nil {
		b.Fatal(err)
	}
	warm := func(mods []string) func(b *testing.B) {
		return func(b *testing.B) {
			for range b.N {
				heap, kept := heapAfter(func() any {
					got, err := newSet(cache).Load(ctx, mods)
					if err != nil {
						b.Fatal(err)
					}
					return got
				})
				b.ReportMetric(heap, "heap-MiB")
				b.ReportMetric(float64(len(kept.(map[string]*File))), "modules")
			}
		}
	}
	b.Run("builtins/warm", warm(builtins))
	w := benchWorkspaces[0]
	if _, err := os.Stat(filepath.Join(w.root, w.sub)); err != nil {
		return
	}
	x := w.index(b, s, filepath.Join(os.TempDir(), "pyws-bench-stubs-index"))
	if err := x.Build(ctx); err != nil {
		b.Fatal(err)
	}
	mods := stubModules(x.files)
	if _, err := newSet(cache).Load(ctx, mods); err != nil {
		b.Fatal(err)
	}
	b.Run("django/warm", warm(mods))
	// What every relink after an edit pays: the imports collected again
	// and the closure walked, every stub already in memory.
	loaded := newSet(cache)
	if _, err := loaded.Load(ctx, mods); err != nil {
		b.Fatal(err)
	}
	b.Run("django/relink-collect", func(b *testing.B) {
		for range b.N {
			if _, err := loaded.Load(ctx, stubModules(x.files)); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A warm build of Django (summaries from the disk cache) with and
	// without linking into the stubs: what the annotations cost the link.
	for _, with := range []bool{false, true} {
		b.Run(fmt.Sprintf("django/build/stubs=%v", with), func(b *testing.B) {
			for range b.N {
				heap, _ := heapAfter(func() any { return warmDjango(b, s, stubs, cache, with) })
				b.ReportMetric(heap, "heap-MiB")
			}
		})
	}
}

// warmDjango builds Django's index from the summaries a first build left
// in the disk cache, linked into the stubs (summaries cached in
// stubCache) when withStubs.
func warmDjango(b *testing.B, s Summarizer, stubs *typeshed.Stubs, stubCache string, withStubs bool) *Index {
	w := benchWorkspaces[0]
	cfg := Config{Root: w.root, Files: w.files, Read: os.ReadFile, Summarizer: s, CacheDir: filepath.Join(os.TempDir(), "pyws-bench-stubs-index")}
	if withStubs {
		cfg.Stubs = NewStubSets(StubConfig{Stubs: stubs, Summarizer: s, CacheDir: stubCache})
	}
	x := New(cfg)
	if err := x.Build(context.Background()); err != nil {
		b.Fatal(err)
	}
	return x
}

// BenchmarkTypeModelHeap is what the type model costs the server's live
// heap on Django (issue 13 allows 60 MB), each figure the live heap
// after a step less index-MiB, the index without stubs: stubs-MiB after
// a build linked into typeshed's stubs (their summaries, links and the
// evaluator made for them), references-MiB after get_references at 200
// sampled positions (which types the attributes of the name asked
// about), hover-MiB after hovers at the same positions, findings-MiB after the type findings of every file
// (get_diagnostics' type checks on all of Django: the most the
// evaluator's memo holds).
func BenchmarkTypeModelHeap(b *testing.B) {
	w := benchWorkspaces[0]
	w.skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	stubs := benchStubs(b)
	cache := filepath.Join(os.TempDir(), "pyws-bench-stubs")
	warmDjango(b, s, stubs, cache, true) // fills both disk caches
	ctx := context.Background()
	for b.Loop() {
		base := liveMiB()
		x := warmDjango(b, s, stubs, cache, false)
		plain := liveMiB()
		runtime.KeepAlive(x)
		x = warmDjango(b, s, stubs, cache, true) // the first one dropped
		typed := liveMiB()
		hits := sampleHits(x, 200, 1)
		for _, hp := range hits {
			if h := x.At(hp[0].(string), hp[1].(int), hp[2].(int)); h != nil {
				if _, err := x.References(ctx, h, true); err != nil {
					b.Fatal(err)
				}
			}
		}
		referenced := liveMiB()
		for _, hp := range hits {
			if h := x.At(hp[0].(string), hp[1].(int), hp[2].(int)); h != nil {
				if _, err := x.Hover(ctx, h); err != nil {
					b.Fatal(err)
				}
			}
		}
		hovered := liveMiB()
		for _, f := range x.sorted {
			x.TypeFindings(f.Abs)
		}
		checked := liveMiB()
		b.ReportMetric(plain-base, "index-MiB")
		b.ReportMetric(typed-plain, "stubs-MiB")
		b.ReportMetric(referenced-plain, "references-MiB")
		b.ReportMetric(hovered-plain, "hover-MiB")
		b.ReportMetric(checked-plain, "findings-MiB")
		runtime.KeepAlive(x)
	}
}

// liveMiB is the live heap after a collection, in MiB.
func liveMiB() float64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkRelink is what every edit costs the index once the changed
// file is summarized: the link of the whole workspace (Django, with
// typeshed's stubs), under the write lock, so no query answers
// meanwhile.
func BenchmarkRelink(b *testing.B) {
	benchWorkspaces[0].skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	x := warmDjango(b, s, benchStubs(b), filepath.Join(os.TempDir(), "pyws-bench-stubs"), true)
	stubs := x.mods.stubs
	run := processCPU()
	for b.Loop() {
		x.mu.Lock()
		x.relinkLocked(stubs)
		x.mu.Unlock()
	}
	b.ReportMetric(float64((processCPU()-run).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkHoverAfterRelink is the first get_hover after an edit (the
// relink it follows is not timed): first-ms is its p50 over 40 sampled
// Django positions, each right after a relink, warm-ms the same hover
// asked again, cpu-* the same in CPU time. Their difference is what the
// evaluator's memo, new at every relink, costs the first answer.
func BenchmarkHoverAfterRelink(b *testing.B) {
	benchWorkspaces[0].skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	x := warmDjango(b, s, benchStubs(b), filepath.Join(os.TempDir(), "pyws-bench-stubs"), true)
	stubs := x.mods.stubs
	hits := sampleHits(x, 40, 2)
	var first, warm, firstCPU, warmCPU []time.Duration
	hover := func(hp [3]any) (time.Duration, time.Duration) {
		start, run := time.Now(), processCPU()
		h := x.At(hp[0].(string), hp[1].(int), hp[2].(int))
		if h == nil {
			b.Fatalf("nothing at %v", hp)
		}
		if _, err := x.Hover(context.Background(), h); err != nil {
			b.Fatal(err)
		}
		return time.Since(start), processCPU() - run
	}
	for b.Loop() {
		first, warm, firstCPU, warmCPU = first[:0], warm[:0], firstCPU[:0], warmCPU[:0]
		for _, hp := range hits {
			x.mu.Lock()
			x.relinkLocked(stubs)
			x.mu.Unlock()
			d, c := hover(hp)
			first, firstCPU = append(first, d), append(firstCPU, c)
			d, c = hover(hp)
			warm, warmCPU = append(warm, d), append(warmCPU, c)
		}
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"first", first}, {"warm", warm}, {"cpu-first", firstCPU}, {"cpu-warm", warmCPU}} {
		p50, p99 := percentiles(m.d)
		b.ReportMetric(float64(p50.Microseconds())/1000, m.name+"-p50-ms")
		b.ReportMetric(float64(p99.Microseconds())/1000, m.name+"-p99-ms")
	}
}

// BenchmarkRelinkChanged is the relink after an edit of one file of
// Django (40 files sampled, seeded; the file's summary kept, so only
// the relink is timed, as after RefreshFile): p50/p90 of its time and
// CPU, the files linked again (relinked-p50/p90, of 859) and the share
// of edits that took the incremental path (incremental-pct; the rest
// linked every file). Once, untimed, each edit's link is compared with
// a full link of the same files.
func BenchmarkRelinkChanged(b *testing.B) {
	benchWorkspaces[0].skipIfMissing(b)
	s := pluginSummarizer{rt: indexerRuntime(b)}
	x := warmDjango(b, s, benchStubs(b), filepath.Join(os.TempDir(), "pyws-bench-stubs"), true)
	stubs := x.mods.stubs
	r := rand.New(rand.NewSource(3))
	var sample []string
	for _, i := range r.Perm(len(x.sorted))[:40] {
		sample = append(sample, x.sorted[i].Rel)
	}
	edit := func(rel string) {
		f := x.files[rel]
		g := newFile(f.Rel, f.Abs)
		g.Hash, g.Size, g.MTime, g.S = f.Hash, f.Size, f.MTime, f.S
		x.files[rel] = g
	}
	checked := false
	var times, cpu []time.Duration
	var relinked []int
	incremental := 0
	for b.Loop() {
		times, cpu, relinked, incremental = times[:0], cpu[:0], relinked[:0], 0
		for _, rel := range sample {
			x.mu.Lock()
			edit(rel)
			full := x.fullLinks
			start, run := time.Now(), processCPU()
			x.relinkLocked(stubs)
			times, cpu = append(times, time.Since(start)), append(cpu, processCPU()-run)
			n := len(x.sorted)
			if x.fullLinks == full {
				incremental++
				n = x.lastRelinked
			}
			relinked = append(relinked, n)
			x.mu.Unlock()
			if !checked && len(relinked) <= 5 {
				got := x.LinkDigest()
				x.mu.Lock()
				x.memo = nil
				x.relinkLocked(stubs)
				x.mu.Unlock()
				if want := x.LinkDigest(); got != want {
					b.Fatalf("%s: the relinked index differs from a full link", rel)
				}
			}
		}
		checked = true
	}
	p50, p90 := percentiles(times)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
	_ = p90
	p50, _ = percentiles(cpu)
	b.ReportMetric(float64(p50.Microseconds())/1000, "cpu-p50-ms")
	b.ReportMetric(float64(cpu[len(cpu)*9/10].Microseconds())/1000, "cpu-p90-ms")
	sort.Ints(relinked)
	b.ReportMetric(float64(relinked[len(relinked)/2]), "relinked-p50")
	b.ReportMetric(float64(relinked[len(relinked)*9/10]), "relinked-p90")
	b.ReportMetric(float64(incremental*100/len(sample)), "incremental-pct")
}
