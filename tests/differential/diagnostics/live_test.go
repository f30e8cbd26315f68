package diagdiff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pyws/pyws/tests/internal/teststubs"
)

// The live differential run:
//
//	PYWS_DIFF=1 go test ./tests/differential/diagnostics -run TestLive -v -timeout 60m
//
// copies each project of PYWS_DIFF_PROJECTS (default: Debian's requests,
// flask and django under /usr/lib/python3/dist-packages) into a workspace
// of its own, serves it with the real pyws binary and the diagnostics
// plugin, asks get_diagnostics for every file over HTTP, and compares with
// /usr/bin/python3 -m pyflakes and /opt/pyright/node_modules/.bin/pyright
// --outputjson (cached under the temp dir by input hash). The workspace's
// pyproject.toml pins the target (3.11) and the interpreter
// (/usr/bin/python3) and turns off suppression comments (pyflakes ignores
// `# noqa`; these projects are flake8-clean once noqa is honoured, which
// would leave nothing to compare), and pyright gets the same interpreter.
// Documented departures from pyflakes (explicit re-exports, _-prefixed
// locals) are taken out of pyflakes' findings. It fails when
// a pyflakes code's precision is below 0.97 or recall below 0.95, or when
// any import-not-found, missing-argument or type-mismatch is not confirmed
// by pyright. PYWS_DIFF_SHOW=n prints n disagreements per code.

const (
	systemPython = "/usr/bin/python3"
	pyrightBin   = "/opt/pyright/node_modules/.bin/pyright"
	distPackages = "/usr/lib/python3/dist-packages"
)

func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

var (
	buildOnce sync.Once
	binPath   string
	plugDir   string
	buildErr  error
)

// buildServer builds pyws and packs the diagnostics plugin (only it: the
// comparison does not depend on the other plugins), or with
// PYWS_DIFF_FULL=1 every plugin, as a production service runs: the
// workspace is then indexed before the timed run and its files' trees are
// in the workers' caches.
func buildServer(t testing.TB) (string, string) {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pyws-diagdiff-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "pyws")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/pyws")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		if buildErr = teststubs.LinkBeside(repoRoot(t), binPath); buildErr != nil {
			return
		}
		plugDir = filepath.Join(dir, "plugins")
		packs := []string{"diagnostics"}
		if os.Getenv("PYWS_DIFF_FULL") != "" {
			packs = append(packs, "indexer", "formatter")
		}
		for _, name := range packs {
			cmd = exec.Command(binPath, "plugin", "pack", filepath.Join(repoRoot(t), "plugins", name), plugDir)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("plugin pack: %v\n%s", err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath, plugDir
}

// Server is a running pyws serving one workspace with a development key.
type Server struct {
	Base, Key string
	cmd       *exec.Cmd
	logs      bytes.Buffer
}

// StartServer serves ws; the caller stops it.
func StartServer(t testing.TB, ws string) *Server {
	bin, plugins := buildServer(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &Server{Base: "http://" + addr, Key: "diagdiff-key-0123456789abcdef0123456789"}
	s.cmd = exec.Command(bin, "serve", "--workspace", ws, "--addr", addr, "--dev-key", "--plugins", plugins,
		"--state", filepath.Join(t.TempDir(), "state"), "--workers", "2", "--log-level", "warn")
	s.cmd.Env = append(os.Environ(), "PYWS_API_KEY="+s.Key)
	s.cmd.Stdout, s.cmd.Stderr = &s.logs, &s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.Base + "/v1/openapi.json")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %v\n%s", err, s.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

// Diagnostics calls get_diagnostics for a workspace-relative path.
// WaitIndexed waits until health_check reports the workspace loaded
// (indexed, when the indexer plugin is there).
func (s *Server) WaitIndexed(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		req, _ := http.NewRequest("POST", s.Base+"/v1/tools/health_check", strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer "+s.Key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var h struct {
				Workspace struct {
					Loaded bool `json:"loaded"`
				} `json:"workspace"`
			}
			json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			if h.Workspace.Loaded {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace not indexed after 5 minutes: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *Server) Diagnostics(rel string) ([]Finding, error) {
	body, _ := json.Marshal(map[string]any{"uri": rel})
	for attempt := 0; ; attempt++ {
		req, _ := http.NewRequest("POST", s.Base+"/v1/tools/get_diagnostics", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.Key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 503 && attempt < 50 { // still loading
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if resp.StatusCode != 200 {
			return nil, fmt.Errorf("%s: %d %s", rel, resp.StatusCode, raw)
		}
		var res struct {
			Diagnostics []struct {
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, err
		}
		var out []Finding
		for _, d := range res.Diagnostics {
			out = append(out, Finding{File: rel, Line: d.Range.Start.Line + 1, Code: ComparedCode(d.Code, d.Message), Name: OurName(d.Code, d.Message), Text: d.Message})
		}
		return out, nil
	}
}

// Workspace copies a project directory into a fresh workspace folder with
// a pyproject.toml pinning the target version and interpreter; it returns
// the workspace and the relative paths of its Python files.
func Workspace(t testing.TB, project string) (string, []string) {
	ws := filepath.Join(t.TempDir(), filepath.Base(project)+"-ws")
	dst := filepath.Join(ws, filepath.Base(project))
	os.MkdirAll(ws, 0o755)
	if out, err := exec.Command("cp", "-rL", project, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v %s", project, err, out)
	}
	py := "[tool.pyws]\npython-version = \"3.11\"\npython = \"" + systemPython + "\"\nignore-noqa = true\n"
	if err := os.WriteFile(filepath.Join(ws, "pyproject.toml"), []byte(py), 0o644); err != nil {
		t.Fatal(err)
	}
	rc := `{"pythonVersion": "3.11", "typeCheckingMode": "standard"}`
	if err := os.WriteFile(filepath.Join(ws, "pyrightconfig.json"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			rel, _ := filepath.Rel(ws, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	return ws, files
}

// cached runs a command once per input hash (the tools' output does not
// depend on our code).
func cached(t testing.TB, key string, run func() []byte) []byte {
	h := sha256.Sum256([]byte(key))
	p := filepath.Join(os.TempDir(), "pyws-diagdiff-"+hex.EncodeToString(h[:8])+".out")
	if b, err := os.ReadFile(p); err == nil {
		return b
	}
	out := run()
	os.WriteFile(p, out, 0o644)
	return out
}

// fingerprint hashes the files (names and sizes) of a project.
func fingerprint(ws string, files []string) string {
	h := sha256.New()
	for _, f := range files {
		fi, _ := os.Stat(filepath.Join(ws, f))
		fmt.Fprintf(h, "%s %d\n", f, fi.Size())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RunPyflakes runs Debian's pyflakes on the files.
func RunPyflakes(t testing.TB, ws string, files []string) []byte {
	return cached(t, "pyflakes "+fingerprint(ws, files), func() []byte {
		var buf bytes.Buffer
		for i := 0; i < len(files); i += 200 {
			cmd := exec.Command(systemPython, append([]string{"-m", "pyflakes"}, files[i:min(i+200, len(files))]...)...)
			cmd.Dir = ws
			cmd.Stdout, cmd.Stderr = &buf, &buf
			cmd.Run() // status 1 when it finds something
		}
		return buf.Bytes()
	})
}

// RunPyright runs pyright on the workspace with the system interpreter.
func RunPyright(t testing.TB, ws string, files []string) []byte {
	return cached(t, "pyright "+fingerprint(ws, files), func() []byte {
		cmd := exec.Command(pyrightBin, "--outputjson", "--pythonpath", systemPython, "-p", filepath.Join(ws, "pyrightconfig.json"))
		cmd.Dir = ws
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Run()
		return out.Bytes()
	})
}

func TestLive(t *testing.T) {
	if os.Getenv("PYWS_DIFF") == "" {
		t.Skip("set PYWS_DIFF=1 to compare with pyflakes and pyright on real projects")
	}
	projects := []string{"requests", "flask", "django"}
	if p := os.Getenv("PYWS_DIFF_PROJECTS"); p != "" {
		projects = strings.Split(p, ",")
	}
	show := 0
	fmt.Sscan(os.Getenv("PYWS_DIFF_SHOW"), &show)
	for _, name := range projects {
		t.Run(name, func(t *testing.T) {
			src := name
			if !filepath.IsAbs(src) {
				src = filepath.Join(distPackages, name)
			}
			if _, err := os.Stat(src); err != nil {
				t.Skipf("%s not installed", src)
			}
			ws, files := Workspace(t, src)
			s := StartServer(t, ws)
			// Time the diagnostics of a loaded and indexed workspace, as a
			// running service has, not its first indexing.
			s.WaitIndexed(t)
			start := time.Now()
			ours := make([][]Finding, len(files))
			var wg sync.WaitGroup
			var mu sync.Mutex
			var firstErr error
			next := make(chan int)
			// Four clients for the server's two workers: while one call
			// crosses HTTP and the kernel, another keeps its worker busy.
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						f, err := s.Diagnostics(files[i])
						mu.Lock()
						if err != nil && firstErr == nil {
							firstErr = err
						}
						ours[i] = f
						mu.Unlock()
					}
				}()
			}
			for i := range files {
				next <- i
			}
			close(next)
			wg.Wait()
			if firstErr != nil {
				t.Fatal(firstErr)
			}
			elapsed := time.Since(start)
			var all []Finding
			for _, f := range ours {
				all = append(all, f...)
			}
			lines := map[string][]string{}
			getLines := func(file string) []string {
				if l, ok := lines[file]; ok {
					return l
				}
				b, _ := os.ReadFile(filepath.Join(ws, file))
				lines[file] = strings.Split(string(b), "\n")
				return lines[file]
			}
			strip := func(p string) string {
				// cached tool output may name an earlier run's workspace
				if _, after, ok := strings.Cut(filepath.ToSlash(p), "-ws/"); ok {
					return after
				}
				return filepath.ToSlash(strings.TrimPrefix(p, "./"))
			}
			pf := ParsePyflakes(RunPyflakes(t, ws, files), strip, getLines)
			pr, err := ParsePyright(RunPyright(t, ws, files), strip)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d files, %d diagnostics in %v over HTTP (%.0f files/s)", name, len(files), len(all), elapsed, float64(len(files))/elapsed.Seconds())
			// pyflakes timed in the same run, one process over the same
			// files (its findings come from the cached run below).
			pfStart := time.Now()
			pfCmd := exec.Command(systemPython, append([]string{"-m", "pyflakes"}, files...)...)
			pfCmd.Dir = ws
			pfCmd.Run()
			pfElapsed := time.Since(pfStart)
			t.Logf("%s: pyflakes, one process, same run: %v (%.0f files/s); pyws over HTTP is %.2fx", name, pfElapsed.Round(time.Millisecond),
				float64(len(files))/pfElapsed.Seconds(), pfElapsed.Seconds()/elapsed.Seconds())
			scores := ComparePyflakes(all, pf)
			for _, code := range PyflakesCodes {
				sc := scores[code]
				t.Logf("  %-18s pyflakes=%4d ours=%4d agree=%4d precision=%.3f recall=%.3f", code, sc.Theirs, sc.Ours, sc.Agree, sc.Precision(), sc.Recall())
				for i := 0; i < show && i < len(sc.OnlyOurs); i++ {
					f := sc.OnlyOurs[i]
					t.Logf("      only ours:     %s:%d %s", f.File, f.Line, f.Text)
				}
				for i := 0; i < show && i < len(sc.OnlyTheirs); i++ {
					f := sc.OnlyTheirs[i]
					t.Logf("      only pyflakes: %s:%d %s", f.File, f.Line, f.Text)
				}
				if sc.Precision() < 0.97 || sc.Recall() < 0.95 {
					t.Errorf("%s %s: precision %.3f recall %.3f (want >= 0.97 / 0.95)", name, code, sc.Precision(), sc.Recall())
				}
			}
			fps, counts := PyrightFalsePositives(all, pr)
			pyrightTotal := map[string]int{}
			for _, d := range pr {
				pyrightTotal[d.Rule]++
			}
			for _, code := range PyrightCodes {
				t.Logf("  %-18s ours=%4d not confirmed by pyright=%d", code, counts[code], len(fps[code]))
				for _, f := range fps[code] {
					t.Errorf("%s: %s:%d %s: %s (pyright does not report it)", name, f.File, f.Line, f.Code, f.Text)
				}
			}
			t.Logf("  pyright: reportMissingImports=%d reportCallIssue=%d reportArgumentType=%d reportAttributeAccessIssue=%d",
				pyrightTotal["reportMissingImports"], pyrightTotal["reportCallIssue"], pyrightTotal["reportArgumentType"], pyrightTotal["reportAttributeAccessIssue"])
			other := map[string]int{}
			for _, f := range all {
				other[f.Code]++
				if f.Code == "syntax-error" {
					t.Errorf("%s: %s:%d syntax-error on a file CPython compiles: %s", name, f.File, f.Line, f.Text)
				}
			}
			t.Logf("  all codes: %v", other)
		})
	}
}
