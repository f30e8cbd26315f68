package interpreter

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const answer = `{"version": "3.11", "release": "3.11.7", "platform": "linux", "installed": ["numpy", "requests"]}`

// fakePython writes an executable shell script standing in for an
// interpreter: body runs whatever arguments it gets.
func fakePython(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFind(t *testing.T) {
	pathDir := t.TempDir()
	onPath := fakePython(t, pathDir, "python3", "echo '"+answer+"'")
	cases := []struct {
		name       string
		files      []string // executables to create under the root
		dirs       []string
		configured string
		path       string // PATH
		want       string // relative to the root unless absolute or ""
	}{
		{name: "configured relative to the root", configured: "tools/py", files: []string{".venv/bin/python"}, path: pathDir, want: "tools/py"},
		{name: "configured absolute", configured: "/opt/py/bin/python3", path: pathDir, want: "/opt/py/bin/python3"},
		{name: ".venv before venv", files: []string{".venv/bin/python", "venv/bin/python"}, path: pathDir, want: ".venv/bin/python"},
		{name: "venv", files: []string{"venv/bin/python"}, path: pathDir, want: "venv/bin/python"},
		{name: "a directory is no interpreter", dirs: []string{".venv/bin/python"}, path: pathDir, want: onPath},
		{name: "python3 on PATH", path: pathDir, want: onPath},
		{name: "none found", path: t.TempDir(), want: ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range c.files {
				fakePython(t, root, f, "exit 0")
			}
			for _, d := range c.dirs {
				os.MkdirAll(filepath.Join(root, d), 0o755)
			}
			t.Setenv("PATH", c.path)
			want := c.want
			if want != "" && !filepath.IsAbs(want) {
				want = filepath.Join(root, want)
			}
			if got := Find(root, c.configured); got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

// TestAskRealStdlib asks this machine's python3 for its standard
// library's source directory.
func TestAskRealStdlib(t *testing.T) {
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	info, err := Ask(p, DefaultTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if info.Stdlib == "" {
		t.Fatalf("no stdlib directory in %+v", info.Version)
	}
	// The search path past the standard library: site-packages or
	// dist-packages, never the stdlib itself or its lib-dynload.
	found := false
	for _, d := range info.Site {
		if d == info.Stdlib || filepath.Base(d) == "lib-dynload" || !filepath.IsAbs(d) {
			t.Errorf("site directory %q", d)
		}
		found = found || strings.HasSuffix(d, "-packages")
	}
	if !found {
		t.Errorf("no site-packages or dist-packages in %v", info.Site)
	}
	if fi, err := os.Stat(filepath.Join(info.Stdlib, "json", "__init__.py")); err != nil || fi.IsDir() {
		t.Skipf("python3's stdlib %s has no sources: %v", info.Stdlib, err)
	}
}

func TestAsk(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		body    string
		want    string // Version of the answer; "" when Ask must fail
		wantErr error  // when set, errors.Is must hold
		plat    string // Platform of the answer
		release string // Release of the answer
	}{
		{name: "answers", body: "echo '" + answer + "'", want: "3.11", plat: "linux", release: "3.11.7"},
		{name: "a prerelease", body: `echo '{"version": "3.13", "release": "3.13.0rc1"}'`, want: "3.13", release: "3.13.0rc1"},
		{name: "a release of another version is dropped", body: `echo '{"version": "3.13", "release": "3.12.1"}'`, want: "3.13"},
		{name: "a release that is no version is dropped", body: `echo '{"version": "3.13", "release": "3.13.1 (main)"}'`, want: "3.13"},
		{name: "a platform that is no sys.platform is dropped", body: `echo '{"version": "3.9", "platform": "Linux x86"}'`, want: "3.9"},
		{name: "runs in the temporary directory", body: `[ "$PWD" = "` + os.TempDir() + `" ] && echo '` + answer + `'`, want: "3.11", plat: "linux", release: "3.11.7"},
		{name: "a relative stdlib is dropped", body: `echo '{"version": "3.9", "stdlib": "lib/python3.9"}'`, want: "3.9"},
		{name: "no installed list", body: `echo '{"version": "3.9"}'`, want: "3.9"},
		{name: "exits with an error", body: "echo boom >&2; exit 3"},
		{name: "prints garbage", body: "echo 'Python 3.11.2'", wantErr: ErrUnreadable},
		{name: "prints JSON without a version", body: `echo '{"installed": []}'`, wantErr: ErrUnreadable},
		{name: "times out", body: "exec sleep 30"}, // exec: the kill reaches the sleep itself,
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fakePython(t, dir, strings.ReplaceAll(c.name, " ", "-"), c.body)
			start := time.Now()
			info, err := Ask(p, 500*time.Millisecond)
			if time.Since(start) > 5*time.Second {
				t.Errorf("Ask took %v with a 500ms timeout", time.Since(start))
			}
			if c.want == "" {
				if err == nil || info != nil {
					t.Fatalf("Ask = %+v, %v; want an error", info, err)
				}
				if c.wantErr != nil && !errors.Is(err, c.wantErr) {
					t.Fatalf("err %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil || info.Version != c.want || info.Installed == nil || info.Platform != c.plat || info.Stdlib != "" || info.Release != c.release {
				t.Fatalf("Ask = %+v, %v; want version %s, platform %q, release %q", info, err, c.want, c.plat, c.release)
			}
		})
	}
	if _, err := Ask(filepath.Join(dir, "missing"), time.Second); err == nil {
		t.Error("a missing interpreter answered")
	}
}

func TestProber(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	reply := filepath.Join(dir, "reply")
	os.WriteFile(reply, []byte(answer), 0o644)
	// The fake counts its runs and prints whatever reply holds.
	p := fakePython(t, dir, "python", `echo x >> `+calls+`; cat `+reply)
	runs := func() int {
		b, _ := os.ReadFile(calls)
		return strings.Count(string(b), "x")
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	pr := NewProber(time.Hour, 5*time.Second, quiet)
	if pr.Info("") != nil {
		t.Error("no interpreter gave an answer")
	}
	if pr.Known(p) != nil || runs() != 0 {
		t.Fatalf("Known answered or asked before any asking (%d runs)", runs())
	}
	first := pr.Info(p)
	if first == nil || first.Version != "3.11" || first.Release != "3.11.7" || strings.Join(first.Installed, ",") != "numpy,requests" {
		t.Fatalf("first answer %+v", first)
	}
	if pr.Info(p) != first || pr.Known(p) != first || runs() != 1 {
		t.Fatalf("a fresh answer was asked again (%d runs)", runs())
	}

	// Old answers are refreshed in the background; the old one serves
	// meanwhile, and a refresh that fails keeps it.
	pr = NewProber(time.Nanosecond, 5*time.Second, quiet)
	first = pr.Info(p)
	os.WriteFile(reply, []byte("garbage"), 0o644)
	time.Sleep(time.Millisecond)
	if got := pr.Info(p); got != first {
		t.Fatalf("the old answer did not serve during the refresh: %+v", got)
	}
	waitFor(t, func() bool { return runs() >= 3 })
	os.WriteFile(reply, []byte(`{"version": "3.12", "installed": []}`), 0o644)
	waitFor(t, func() bool {
		time.Sleep(time.Millisecond)
		got := pr.Info(p)
		if got == nil {
			t.Fatal("a failed refresh dropped the previous answer")
		}
		return got.Version == "3.12"
	})

	// An interpreter that cannot answer is nil, not an error.
	broken := fakePython(t, dir, "broken", "exit 1")
	if got := NewProber(0, 0, quiet).Info(broken); got != nil {
		t.Errorf("a broken interpreter answered %+v", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestInstalledOf(t *testing.T) {
	info := &Info{Installed: []string{"numpy", "requests", "yaml", "django"}}
	got := info.InstalledOf(map[string]int{"numpy.linalg": 0, "yaml": 0, ".local": 2, "os.path": 0})
	if strings.Join(got, ",") != "numpy,yaml" {
		t.Errorf("got %v, want numpy,yaml", got)
	}
	if got := info.InstalledOf(nil); got == nil || len(got) != 0 {
		t.Errorf("no imports: got %#v, want an empty, non-nil list", got)
	}
}

// A prober with a cache directory serves a previous process's answer at
// once and asks again in the background; the answer is not used once the
// interpreter or a directory it named changed.
func TestProberRemembers(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site-packages")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	calls := filepath.Join(dir, "calls")
	reply := filepath.Join(dir, "reply")
	write := func(version string) {
		os.WriteFile(reply, []byte(`{"version": "`+version+`", "installed": ["numpy"], "site": ["`+site+`"]}`), 0o644)
	}
	write("3.11")
	p := fakePython(t, dir, "python", `echo x >> `+calls+`; cat `+reply)
	runs := func() int {
		b, _ := os.ReadFile(calls)
		return strings.Count(string(b), "x")
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cache := filepath.Join(dir, "state", "interpreters")
	prober := func() *Prober {
		pr := NewProber(time.Hour, 5*time.Second, quiet)
		pr.SetCacheDir(cache)
		return pr
	}

	if got := prober().Info(p); got == nil || got.Version != "3.11" || runs() != 1 {
		t.Fatalf("first answer %+v after %d runs", got, runs())
	}
	// The next process: the remembered answer at once, a refresh behind it.
	write("3.12")
	pr := prober()
	if got := pr.Info(p); got == nil || got.Version != "3.11" {
		t.Fatalf("the remembered answer was not served: %+v", got)
	}
	waitFor(t, func() bool { return runs() == 2 && pr.Info(p).Version == "3.12" })

	// A package installed (the site directory changes): asked again first.
	time.Sleep(10 * time.Millisecond) // a visible mtime step
	if err := os.Mkdir(filepath.Join(site, "requests"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("3.13")
	if got := prober().Info(p); got == nil || got.Version != "3.13" || runs() != 3 {
		t.Fatalf("after an install: %+v after %d runs; the remembered answer must not serve", got, runs())
	}
	// Without a cache directory nothing is remembered.
	if got := NewProber(time.Hour, 5*time.Second, quiet).Info(p); got == nil || runs() != 4 {
		t.Fatalf("a prober without a cache: %+v after %d runs", got, runs())
	}
}
