// Package interpreter finds the Python interpreter a workspace runs with
// and asks it what it can import, for import-not-found (which trusts the
// interpreter's installed packages) and the target Python version.
//
// The interpreter is [tool.pyws] python (a path, relative to the
// workspace root allowed), else the workspace's .venv/bin/python or
// venv/bin/python, else python3 on the server's PATH (Find). It is asked,
// with a timeout, for its version and the top-level modules importable
// from its sys.path (directories, .py and extension modules, zip entries
// through pkgutil, and importlib.metadata's top-level names, which covers
// editable installs); the standard library's directories are included:
// they hold importable packages that sys.stdlib_module_names leaves out,
// such as Debian's "test" (Ask). A Prober remembers the answers for one
// workspace and asks again in the background when they are old.
package interpreter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Info is what an interpreter told us.
type Info struct {
	Version   string   `json:"version"`            // "3.11"
	Release   string   `json:"release,omitempty"`  // platform.python_version(): "3.11.7", what health_check reports; "" unknown
	Platform  string   `json:"platform,omitempty"` // sys.platform: "linux", "darwin", "win32"
	Installed []string `json:"installed"`
	// Stdlib is the standard library's source directory
	// (sysconfig.get_paths()["stdlib"], "/usr/lib/python3.11"): hovers take
	// the docstrings typeshed's stubs lack from its .py files. "" unknown.
	Stdlib string `json:"stdlib,omitempty"`
	// Site are the directories of sys.path other than the standard
	// library's (site-packages, dist-packages, PYTHONPATH entries), in
	// search order: where installed packages' types come from.
	Site []string `json:"site,omitempty"`
}

const script = `
import sys, os, json, pkgutil, sysconfig, platform
paths = [p for p in sys.path if p]
names = set()
for p in paths:
    if not os.path.isdir(p):
        continue
    for fn in os.listdir(p):
        if fn == "__pycache__" or fn.endswith((".dist-info", ".egg-info", ".pth")):
            continue
        full = os.path.join(p, fn)
        if os.path.isdir(full):
            if fn.endswith("-stubs") and fn[:-6].isidentifier():
                names.add(fn[:-6])  # stub-only packages (types-*) serve type checking
            elif fn.isidentifier():
                names.add(fn)
        else:
            base = fn.split(".")[0]
            if base.isidentifier() and fn.endswith((".py", ".pyc", ".so", ".pyd", ".pyi")):
                names.add(base)
for m in pkgutil.iter_modules(paths):
    names.add(m.name)
try:
    from importlib.metadata import packages_distributions
    names.update(k for k in packages_distributions() if k.isidentifier())
except Exception:
    pass
stdlib = sysconfig.get_paths().get("stdlib", "")
real_stdlib = os.path.realpath(stdlib) if stdlib else ""
site = []
for p in paths:
    rp = os.path.realpath(p)
    if os.path.isdir(p) and rp != real_stdlib and os.path.basename(rp) != "lib-dynload" and p not in site:
        site.append(p)
print(json.dumps({"version": "%d.%d" % sys.version_info[:2], "release": platform.python_version(), "platform": sys.platform, "installed": sorted(names), "stdlib": stdlib, "site": site}))
`

// Find returns the interpreter of the workspace at root: configured (the
// [tool.pyws] python setting, "" when unset) made absolute against root,
// else a virtual environment's python inside root, else python3 on PATH,
// else "".
func Find(root, configured string) string {
	if configured != "" {
		if !filepath.IsAbs(configured) {
			configured = filepath.Join(root, configured)
		}
		return configured
	}
	for _, venv := range []string{".venv", "venv"} {
		p := filepath.Join(root, venv, "bin", "python")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		return ""
	}
	return p
}

// ErrUnreadable is Ask's error when the interpreter ran but its answer is
// not the JSON the script prints.
var ErrUnreadable = errors.New("interpreter answer unreadable")

var (
	minorVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)
	platformName = regexp.MustCompile(`^[a-z][a-z0-9]{0,31}$`)
	releaseName  = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+[a-z0-9+]{0,16}$`)
)

// Ask runs the interpreter at path with the probe script, in the system's
// temporary directory (so nothing of the workspace shadows the standard
// library), and returns its answer. It fails when the interpreter cannot
// run, exits with an error, does not answer within timeout, or prints
// anything but the expected JSON (ErrUnreadable).
func Ask(path string, timeout time.Duration) (*Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-c", script)
	cmd.Dir = os.TempDir()
	// A child the interpreter left behind must not hold the output pipe
	// open past the deadline.
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s did not answer within %v", path, timeout)
	}
	if err != nil {
		return nil, err
	}
	var info Info
	if err := json.Unmarshal(out, &info); err != nil || !minorVersion.MatchString(info.Version) {
		return nil, fmt.Errorf("%w: %.80q", ErrUnreadable, out)
	}
	if info.Installed == nil {
		info.Installed = []string{}
	}
	if !releaseName.MatchString(info.Release) || !strings.HasPrefix(info.Release, info.Version+".") {
		info.Release = "" // not a version CPython prints
	}
	if !platformName.MatchString(info.Platform) {
		info.Platform = "" // not sys.platform as CPython spells it
	}
	if info.Stdlib != "" && (!filepath.IsAbs(info.Stdlib) || filepath.Clean(info.Stdlib) != info.Stdlib) {
		info.Stdlib = "" // only a clean absolute directory is read from
	}
	info.Site = slices.DeleteFunc(info.Site, func(d string) bool { return !filepath.IsAbs(d) || filepath.Clean(d) != d })
	return &info, nil
}

// Prober remembers what the interpreters of one workspace answered. An
// interpreter is asked on first use (the caller waits), then again when
// the answer is older than TTL, in the background while the previous
// answer serves. The zero value is not usable; make one with NewProber.
type Prober struct {
	ttl, timeout time.Duration
	log          *slog.Logger
	dir          string // remembered answers, "" none (SetCacheDir)

	mu      sync.Mutex
	entries map[string]*entry // by interpreter path
}

type entry struct {
	mu      sync.Mutex
	latest  atomic.Pointer[Info] // info, for Known without waiting on mu
	info    *Info
	asked   time.Time
	running bool
}

// Defaults of NewProber.
const (
	DefaultTTL     = 5 * time.Minute
	DefaultTimeout = 20 * time.Second
)

// NewProber returns a Prober asking again after ttl, waiting at most
// timeout for an answer (zero values take the defaults).
func NewProber(ttl, timeout time.Duration, log *slog.Logger) *Prober {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if log == nil {
		log = slog.Default()
	}
	return &Prober{ttl: ttl, timeout: timeout, log: log, entries: map[string]*entry{}}
}

// Info returns the answer of the interpreter at path, nil when path is ""
// or the interpreter cannot answer (the reason is logged). A failed
// refresh keeps the previous answer.
func (p *Prober) Info(path string) *Info {
	if path == "" {
		return nil
	}
	p.mu.Lock()
	e := p.entries[path]
	if e == nil {
		e = &entry{}
		p.entries[path] = e
	}
	p.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.asked.IsZero():
		if info := p.remembered(path); info != nil {
			// A previous process's answer, still matching the files it
			// depends on: served now, confirmed in the background.
			e.info, e.asked, e.running = info, time.Now(), true
			e.latest.Store(info)
			go p.refresh(path, e)
			break
		}
		e.info = p.ask(path)
		e.latest.Store(e.info)
		e.asked = time.Now()
	case time.Since(e.asked) > p.ttl && !e.running:
		e.running = true
		go p.refresh(path, e)
	}
	return e.info
}

// Known returns the answer of the interpreter at path so far, without
// asking and without waiting for an asking under way: nil when none has
// answered yet. health_check reports the version through it, so one
// Python process answers the index, diagnostics and health alike.
func (p *Prober) Known(path string) *Info {
	p.mu.Lock()
	e := p.entries[path]
	p.mu.Unlock()
	if e == nil {
		return nil
	}
	return e.latest.Load()
}

// refresh asks again and keeps the answer (the previous one when it
// fails); e.running is set by the caller.
func (p *Prober) refresh(path string, e *entry) {
	info := p.ask(path)
	e.mu.Lock()
	if info != nil {
		e.info = info
		e.latest.Store(info)
	}
	e.asked, e.running = time.Now(), false
	e.mu.Unlock()
}

func (p *Prober) ask(path string) *Info {
	info, err := Ask(path, p.timeout)
	if err != nil {
		p.log.Warn("interpreter not usable for import-not-found", "python", path, "err", err)
		return nil
	}
	p.remember(path, info)
	return info
}

// SetCacheDir makes the prober remember answers in dir (under --state),
// before its first use. Asking a Python process is 150 ms quiet, more on
// a busy machine, and every start's first index build waits for the
// answer (the target version); a remembered answer is served while the
// interpreter is asked again in the background. It is used only while
// what it depends on is unchanged (fingerprint): the interpreter file,
// its standard library and search-path directories (installing a
// package changes its directory), PYTHONPATH and PYTHONHOME.
func (p *Prober) SetCacheDir(dir string) { p.dir = dir }

type rememberedAnswer struct {
	Fingerprint []string `json:"fingerprint"`
	Info        *Info    `json:"info"`
}

func (p *Prober) rememberedFile(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(p.dir, hex.EncodeToString(sum[:12])+".json")
}

// remembered returns the answer remembered for path when its
// fingerprint still holds, nil otherwise.
func (p *Prober) remembered(path string) *Info {
	if p.dir == "" {
		return nil
	}
	b, err := os.ReadFile(p.rememberedFile(path))
	if err != nil {
		return nil
	}
	var r rememberedAnswer
	if json.Unmarshal(b, &r) != nil || r.Info == nil || !slices.Equal(r.Fingerprint, fingerprint(path, r.Info)) {
		return nil
	}
	return r.Info
}

// remember writes info for path, atomically; failures only cost the next
// start a wait.
func (p *Prober) remember(path string, info *Info) {
	if p.dir == "" {
		return
	}
	b, _ := json.Marshal(rememberedAnswer{Fingerprint: fingerprint(path, info), Info: info})
	if err := os.MkdirAll(p.dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(p.dir, ".answer-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p.rememberedFile(path))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// fingerprint lists what an answer of the interpreter at path depends on:
// the interpreter file (through symlinks: an upgrade changes it), the
// directories it named, and the environment that extends its path.
func fingerprint(path string, info *Info) []string {
	fp := []string{"PYTHONPATH=" + os.Getenv("PYTHONPATH"), "PYTHONHOME=" + os.Getenv("PYTHONHOME")}
	stamp := func(name string) {
		fi, err := os.Stat(name)
		if err != nil {
			fp = append(fp, name+" absent")
			return
		}
		fp = append(fp, fmt.Sprintf("%s %d %d", name, fi.Size(), fi.ModTime().UnixNano()))
	}
	stamp(path)
	if info.Stdlib != "" {
		stamp(info.Stdlib)
	}
	for _, d := range info.Site {
		stamp(d)
	}
	return fp
}

// InstalledOf narrows the interpreter's top-level modules to those named
// by imports, the specs a file imports ("numpy.linalg"; a relative one,
// ".local", names none): the diagnostics plugin only asks about the
// imports the kernel answered in imports, and a list of hundreds of names decoded on
// every call cost the plugin more than analysing a small file (0.8 of
// 2.1 ms for 8 KB). Never nil: an empty list still says an interpreter is
// known.
func (info *Info) InstalledOf(imports map[string]int) []string {
	tops := make(map[string]bool, len(imports))
	for spec := range imports {
		if strings.HasPrefix(spec, ".") {
			continue
		}
		top, _, _ := strings.Cut(spec, ".")
		tops[top] = true
	}
	out := []string{}
	for _, m := range info.Installed {
		if tops[m] {
			out = append(out, m)
		}
	}
	return out
}
