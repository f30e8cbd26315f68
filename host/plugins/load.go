package plugins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
)

// plugin is a loaded, verified plugin as the kernel sees it.
type plugin struct {
	index    int // in the worker's guest list
	dir      string
	manifest *Manifest
	tools    []string // the tools it actually serves, after overrides
	timeout  time.Duration
	spec     guestSpec
	called   atomic.Bool // once: new workers load it before they say ready
}

// candidate is a manifest found on disk, before overrides are resolved.
type candidate struct {
	dir      string
	manifest *Manifest
}

// discover lists the plugins of each directory in order. A directory is
// either one plugin (it holds manifest.json) or a parent of plugin
// directories. Within one directory two plugins may not claim a tool;
// a later directory overrides earlier ones tool by tool.
func discover(dirs []string, logger *slog.Logger) (map[string]candidate, error) {
	owner := map[string]candidate{}
	for _, dir := range dirs {
		found, err := pluginDirs(dir)
		if err != nil {
			return nil, err
		}
		claimed := map[string]string{} // tool -> plugin dir, within dir
		for _, pd := range found {
			m, err := ReadManifest(pd)
			if err != nil {
				return nil, err
			}
			for _, t := range m.Tools {
				if other, dup := claimed[t]; dup {
					return nil, fmt.Errorf("plugins %s and %s both serve tool %q: remove one, or move the replacement to a later plugin directory to override", other, pd, t)
				}
				claimed[t] = pd
				if prev, ok := owner[t]; ok {
					logger.Info("plugin overrides tool", "tool", t, "plugin", m.Name, "dir", pd, "replaces", prev.dir)
				}
				owner[t] = candidate{dir: pd, manifest: m}
			}
		}
	}
	return owner, nil
}

func pluginDirs(dir string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("plugin directory: %w", err)
	}
	var out []string
	for _, e := range entries { // sorted by name
		if !e.IsDir() {
			continue
		}
		pd := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(pd, ManifestFile)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		out = append(out, pd)
	}
	return out, nil
}

// load resolves overrides, then verifies and compiles each surviving
// plugin in the kernel (filling the on-disk compilation cache the workers
// read). No guest code runs here.
func load(ctx context.Context, cfg *Config) ([]*plugin, map[string]*plugin, error) {
	owner, err := discover(cfg.Dirs, cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	byDir := map[string]*plugin{}
	var plugins []*plugin
	for _, t := range sortedKeys(owner) {
		c := owner[t]
		p := byDir[c.dir]
		if p == nil {
			p = &plugin{index: len(plugins), dir: c.dir, manifest: c.manifest}
			byDir[c.dir] = p
			plugins = append(plugins, p)
		}
		p.tools = append(p.tools, t)
	}
	cache, err := wazero.NewCompilationCacheWithDir(cfg.CacheDir)
	if err != nil {
		return nil, nil, fmt.Errorf("compilation cache: %w", err)
	}
	defer cache.Close(ctx)
	// Compiling is most of a cold start (seconds per Go guest): the
	// plugins compile in parallel, each in its own runtime.
	errs := make([]error, len(plugins))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, p := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = p.verify(ctx, cfg, cache)
		}()
	}
	wg.Wait()
	tools := map[string]*plugin{}
	for i, p := range plugins {
		if err := errs[i]; err != nil {
			return nil, nil, fmt.Errorf("plugin %s (%s): %w", p.manifest.Name, p.dir, err)
		}
		for _, t := range p.tools {
			tools[t] = p
		}
		if len(p.tools) != len(p.manifest.Tools) {
			cfg.Logger.Info("plugin serves some of its tools", "plugin", p.manifest.Name, "tools", p.tools)
		}
	}
	return plugins, tools, nil
}

func (p *plugin) verify(ctx context.Context, cfg *Config, cache wazero.CompilationCache) error {
	m := p.manifest
	path := filepath.Join(p.dir, ModuleFile)
	wasm, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if got := sha256Hex(wasm); got != m.SHA256 {
		return fmt.Errorf("%s has sha256 %s but the manifest says %s: the module is not the one the manifest was written for (rebuild with `pyws plugin pack`)", path, got, m.SHA256)
	}
	limitMiB := orDefault(m.MemoryLimitMiB, cfg.MemoryLimitMiB)
	pages := uint32(limitMiB) * (1 << 20 / pageSize)
	if marker := compiledMarker(cfg.CacheDir, m.SHA256); marker == "" || !marked(marker) {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache).WithMemoryLimitPages(pages))
		defer rt.Close(ctx)
		if _, err := compileChecked(ctx, rt, wasm); err != nil {
			return err
		}
		if marker != "" {
			markCompiled(marker, cfg.Logger)
		}
	}
	p.timeout = cfg.DefaultTimeout
	if m.TimeoutMs > 0 {
		p.timeout = time.Duration(m.TimeoutMs) * time.Millisecond
	}
	p.spec = guestSpec{Name: m.Name, Path: path, SHA256: m.SHA256, MemoryLimitPages: pages,
		HighWaterPages: pages / 2, NeedsTree: m.needs(NeedTree)}
	return nil
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Resolve returns the manifest serving each tool of dirs, overrides
// applied as Start applies them, without verifying or compiling anything:
// what a caller can know of the plugins before Start returns.
func Resolve(dirs []string, logger *slog.Logger) (map[string]*Manifest, error) {
	if logger == nil {
		logger = slog.Default()
	}
	owner, err := discover(dirs, logger)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Manifest, len(owner))
	for t, c := range owner {
		out[t] = c.manifest
	}
	return out, nil
}

// compiledMarker names the file that says the module of this SHA-256
// compiled and passed checkModule into cacheDir, with this wazero on this
// platform ("" when wazero's version is unknown). Loading the compiled
// code back only to check it again took 0.3 s of each start on Django
// (0.6-0.9 s busy), before any worker could start; the workers compile
// (from the cache) and check each module anyway, at its first call.
func compiledMarker(cacheDir, sha string) string {
	v := wazeroVersion()
	if v == "" {
		return ""
	}
	return filepath.Join(cacheDir, "checked", sha+"-"+v+"-"+runtime.GOOS+"-"+runtime.GOARCH)
}

var wazeroVersion = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/tetratelabs/wazero" {
			if d.Replace != nil {
				return "" // a local copy: no version to trust
			}
			return d.Version
		}
	}
	return ""
})

// marked reports whether a compile-cache mark is there.
func marked(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// markCompiled writes marker; failing to is only a slower next start.
func markCompiled(marker string, logger *slog.Logger) {
	err := os.MkdirAll(filepath.Dir(marker), 0o700)
	if err == nil {
		err = os.WriteFile(marker, nil, 0o600)
	}
	if err != nil {
		logger.Warn("compiled plugin not marked; the next start checks it again", "marker", marker, "err", err)
	}
}
