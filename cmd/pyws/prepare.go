package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/interpreter"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/service"
)

// A prepared state is what every workspace and every start of one binary
// would otherwise compute again with a fresh --state: the plugins'
// compiled code and typeshed's summaries. `make build` writes it beside
// the binary (`pyws prepare`); serve copies its compiled code into
// --state and reads its summaries where --state has none. Both are keyed
// by what made them (wazero's cache by module hash and wazero version, the
// summaries by indexer build, summary version, target and stub content),
// so a stale prepared state is never used, only missed.

// defaultPreparedDir is prepared/ beside the binary.
func defaultPreparedDir() string { return besideBinary("prepared") }

// besideBinary is name in the executable's directory (name alone when the
// executable is unknown).
func besideBinary(name string) string {
	exe, err := os.Executable()
	if err != nil {
		return name
	}
	return filepath.Join(filepath.Dir(exe), name)
}

// compileCacheDir is where a state directory keeps wazero's compiled code.
func compileCacheDir(state string) string { return filepath.Join(state, "compile-cache") }

// seedCompileCache copies the prepared compiled code --state lacks (a
// few files of ~20 MB: tens of milliseconds, against seconds of
// compiling). Errors are logged, never fatal: without the copy the
// plugins compile as before.
func seedCompileCache(prepared, state string, logger *slog.Logger) {
	from, to := compileCacheDir(prepared), compileCacheDir(state)
	if prepared == "" || sameDir(from, to) {
		return
	}
	copied := 0
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if _, err := os.Stat(dst); err == nil {
			return nil
		}
		if err := copyFileAtomic(p, dst); err != nil {
			return err
		}
		copied++
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) && copied == 0 {
		return // nothing prepared
	}
	if err != nil {
		logger.Warn("prepared compiled plugins not copied; they compile at start", "from", from, "err", err)
		return
	}
	if copied > 0 {
		logger.Info("copied prepared compiled plugins", "from", from, "files", copied)
	}
}

func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// copyFileAtomic copies src to dst through a temporary file renamed into
// place, so a process reading dst never sees half of it.
func copyFileAtomic(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".prepared-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, in)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// prepareCommand writes a prepared state: the plugins compiled and every
// typeshed stdlib stub summarized for each target.
func prepareCommand(args []string) error {
	fs := flag.NewFlagSet("prepare", flag.ContinueOnError)
	out := fs.String("out", defaultPreparedDir(), "prepared state directory to write")
	pythons := fs.String("python", "", "Python versions to summarize typeshed for, comma-separated (default: 3.12 and python3 on PATH's version)")
	stubsDir := fs.String("stubs", defaultStubsDir(), "typeshed stubs directory")
	var dirs stringList
	fs.Var(&dirs, "plugins", "plugin directory; repeatable (default: plugins/ beside the binary)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(dirs) == 0 {
		dirs = stringList{defaultPluginDir()}
	}
	targets, err := prepareTargets(*pythons)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	stubs, err := openStubs(*stubsDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o700); err != nil {
		return err
	}
	ctx := context.Background()
	start := time.Now()
	workers := runtime.GOMAXPROCS(0)
	rt, err := startPlugins(ctx, plugins.Config{Dirs: dirs, CacheDir: compileCacheDir(*out), Workers: workers, Logger: logger})
	if err != nil {
		return err
	}
	defer rt.Close()
	<-rt.Started()
	if err := rt.Err(); err != nil {
		return err
	}
	compiled := time.Since(start)
	svc := service.New(service.Config{Plugins: rt, StateDir: *out, Stubs: stubs, Logger: logger})
	defer svc.Close()
	counts, err := svc.PrepareStubs(ctx, targets)
	if err != nil {
		return err
	}
	var done []string
	for i, t := range targets {
		done = append(done, fmt.Sprintf("%s: %d modules", t, counts[i]))
	}
	fmt.Printf("prepared %s: plugins compiled in %.1f s; typeshed summarized (%s) in %.1f s\n",
		*out, compiled.Seconds(), strings.Join(done, ", "), (time.Since(start) - compiled).Seconds())
	return nil
}

// prepareTargets parses --python ("3.11,3.12"); empty is the default
// target and python3 on PATH's, which is what a workspace without
// configuration or virtual environment follows.
func prepareTargets(list string) ([]index.Target, error) {
	platform := index.DefaultTarget.Platform
	var versions []string
	if list != "" {
		versions = strings.Split(list, ",")
	} else {
		versions = []string{fmt.Sprintf("3.%d", index.DefaultTarget.Minor)}
		if p := interpreter.Find("", ""); p != "" {
			if info, err := interpreter.Ask(p, 10*time.Second); err == nil {
				versions = append(versions, info.Version)
				if info.Platform != "" {
					platform = info.Platform
				}
			}
		}
	}
	var out []index.Target
	seen := map[index.Target]bool{}
	for _, v := range versions {
		major, minor, ok := strings.Cut(strings.TrimSpace(v), ".")
		m, err := strconv.Atoi(minor)
		if !ok || major != "3" || err != nil || m <= 0 {
			return nil, fmt.Errorf("--python: %q is not a Python 3 version like 3.12", v)
		}
		t := index.Target{Minor: m, Platform: platform}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}
