package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHostileFilesystem serves a workspace that is itself hostile and
// changes while every tool of the served OpenAPI document is called from
// several connections (and a few over MCP): FIFOs, sockets and devices
// named *.py, symbolic link loops and links out of the workspace and back,
// a sparse file of 8 GiB, files that grow and shrink between stat and
// read, undecodable and oddly named files, a directory 200 levels deep
// and one of 20,000 entries, files and directories made unreadable,
// replaced by each other, renamed away and back, the root itself removed
// and recreated, and bursts of thousands of events racing edits made
// through apply_workspace_edit. The server is the -race build (under `go
// test -race`) run without the capabilities that let root ignore
// permissions (setpriv drops them), so chmod 000 bites as it does for any
// other user.
//
// After each phase the process must be alive and healthy; no call may
// take past the request timeout; every answer must be a status and code
// the document declares for its operation; no answer may show a file
// outside the workspace, and nothing there may change. Once the churn
// stops, the index converges: its answers equal a fresh server's on the
// same tree. PYWS_FSCHAOS=<duration> runs each phase that long (default
// 2 s) with a new seed, PYWS_FSCHAOS_SEED replays one.
func TestHostileFilesystem(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos: not in -short")
	}
	phase := 2 * time.Second
	if v := os.Getenv("PYWS_FSCHAOS"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("PYWS_FSCHAOS=%q: %v", v, err)
		}
		phase = d
	}
	// `make test` draws the same calls each run (the interleaving still
	// varies); a campaign draws new ones.
	seed := uint64(1)
	if os.Getenv("PYWS_FSCHAOS") != "" {
		seed = uint64(time.Now().UnixNano())
	}
	if v := os.Getenv("PYWS_FSCHAOS_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("seed %d (PYWS_FSCHAOS_SEED to replay)", seed)

	began := time.Now()
	parent := realDir(t, t.TempDir())
	ws, outside := filepath.Join(parent, "ws"), filepath.Join(parent, "outside")
	writeTree(t, outside, map[string]string{"secret.py": "TOKEN = 'do not touch'\n", "data/inner.py": "INNER = 'do not touch'\n"})
	// A link outside that leads back in: ws/leave -> outside/back -> ws.
	if err := os.Symlink(ws, filepath.Join(outside, "back")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a.py":            "import os\n\n\ndef f(x: int) -> str:\n    return os.path.join('a', str(x))\n\n\nclass C:\n    def m(self):\n        return f(1)\n",
		"pkg/__init__.py": "from .b import g\n",
		"pkg/b.py":        "from a import C, f\n\n\ndef g():\n    return C().m() + f(2)\n",
		"locked/c.py":     "from a import f\n\nf(3)\n",
	}
	for i := range 20 {
		files[fmt.Sprintf("m%03d.py", i)] = "from a import f\n\n\ndef h():\n    return f(0)\n"
	}
	writeTree(t, ws, files)
	outsideBefore := treeSnapshot(t, outside)

	c := &chaos{t: t, ws: ws, outside: outside, rnd: rand.New(rand.NewPCG(seed, 1))}
	c.special() // some hostility is there before the server starts
	t.Cleanup(func() {
		for _, l := range c.sockets {
			l.Close()
		}
	})
	wrap := dropCapabilities(t)
	const timeout = 20 * time.Second
	extra := []string{"--request-timeout", timeout.String(), "--log-level", "warn"}
	s := launchWrapped(t, wrap, raceBinary(t), ws, "", extra...)
	key := s.addKeyReady("enterprise", "")
	eventually(t, 5*time.Minute, "workspace loaded", func() bool {
		r, err := s.try("GET", "/v1/tools/health_check?includeWorkspace=true", key, nil)
		return err == nil && jget(r.Body, "workspace", "loaded") == true
	})
	t.Logf("served and loaded after %v", time.Since(began).Round(time.Millisecond))
	ops := servedOperations(t, s)
	mcpSession := mcpHTTPSession(t, s, key)

	phases := []struct {
		name  string
		churn func()
	}{
		{"special files", c.special},
		{"odd contents and names", c.oddContents},
		{"growing and shrinking", c.resize},
		{"permissions and replacements", c.permissions},
		{"event storm and edits racing the disk", c.storm},
	}
	var calls atomic.Int64
	for _, ph := range phases {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ph.churn()
			}
		})
		for conn := range 4 {
			wg.Go(func() {
				rnd := rand.New(rand.NewPCG(seed, uint64(conn)+2))
				for deadline := time.Now().Add(phase); time.Now().Before(deadline); {
					c.call(s, key, ops, rnd, timeout)
					calls.Add(1)
				}
			})
		}
		wg.Go(func() {
			for deadline := time.Now().Add(phase); time.Now().Before(deadline); {
				c.callMCP(mcpSession, timeout)
				calls.Add(1)
			}
		})
		time.Sleep(phase)
		close(stop)
		wg.Wait()
		c.restore()
		s.mustLive(t, key, ph.name)
	}
	t.Logf("%d calls in %d phases of %v", calls.Load(), len(phases), phase)

	// A root removed and recreated makes the served workspace a new one,
	// loaded again from scratch (503 WORKSPACE_NOT_LOADED meanwhile, as
	// during any first load); the answers below are a loaded workspace's.
	eventually(t, 5*time.Minute, "workspace loaded again after the churn", func() bool {
		r, err := s.try("GET", "/v1/tools/health_check?includeWorkspace=true", key, nil)
		return err == nil && jget(r.Body, "workspace", "loaded") == true
	})
	c.mustReport(s, key, wrap != nil || os.Geteuid() != 0)

	// Converged: a fresh server on the final tree answers the same.
	fresh := launchWrapped(t, wrap, binPath, ws, s.keysPath, extra...)
	eventually(t, 2*time.Minute, "fresh server loaded", func() bool {
		r, err := fresh.try("GET", "/v1/tools/health_check?includeWorkspace=true", key, nil)
		return err == nil && jget(r.Body, "workspace", "loaded") == true
	})
	t.Logf("fresh server loaded after %v", time.Since(began).Round(time.Millisecond))
	want := settledAnswers(t, fresh, key, ws)
	var got string
	deadline := time.Now().Add(time.Minute)
	for got = settledAnswers(t, s, key, ws); got != want && time.Now().Before(deadline); got = settledAnswers(t, s, key, ws) {
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("converged after %v", time.Since(began).Round(time.Millisecond))
	if got != want {
		t.Errorf("the index did not converge to a fresh server's answers on the same tree:\n got %s\nwant %s", got, want)
	}
	s.mustLive(t, key, "convergence")
	if after := treeSnapshot(t, outside); !maps.Equal(outsideBefore, after) {
		t.Errorf("the tree outside the workspace changed:\nbefore %v\nafter  %v", outsideBefore, after)
	}
}

// mustReport holds the answers for each hostile file to what docs/api.md
// says of them: get_document_symbols reads the file as every tool does,
// the file resource too. unreadable is whether chmod hides a file from
// the server (false as root with capabilities).
func (c *chaos) mustReport(s *server, key string, unreadable bool) {
	t := c.t
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(c.path("m002.py"), 0))
	defer os.Chmod(c.path("m002.py"), 0o644)
	type want struct {
		status int
		code   string
		reason string // details.reason, when set
	}
	table := map[string]want{
		"x.py":              {403, "PERMISSION_DENIED", "not a regular file"}, // a FIFO: never opened for reading
		"sock.py":           {403, "PERMISSION_DENIED", "not a regular file"},
		"zero.py":           {403, "PERMISSION_DENIED", "path leaves the workspace through a symbolic link"},
		"urandom.py":        {403, "PERMISSION_DENIED", "path leaves the workspace through a symbolic link"},
		"loop.py":           {403, "PERMISSION_DENIED", "too many levels of symbolic links"},
		"dangling.py":       {404, "FILE_NOT_FOUND", ""},
		"outlink/secret.py": {403, "PERMISSION_DENIED", "path leaves the workspace through a symbolic link"},
		"leave/a.py":        {200, "", ""}, // out and back in: a.py, answered as a.py
		"sparse.py":         {413, "FILE_TOO_LARGE", ""},
		"nul.py":            {422, "INVALID_PYTHON", ""},
		"badutf8.py":        {422, "ENCODING_ERROR", ""},
		"empty.py":          {200, "", ""},
		"bom.py":            {200, "", ""},
		"crlf.py":           {200, "", ""},
		"many":              {404, "FILE_NOT_FOUND", ""},
	}
	if unreadable {
		table["m002.py"] = want{403, "PERMISSION_DENIED", "the file cannot be read"}
	}
	for rel, w := range table {
		r, err := s.tryWithin("POST", "/v1/tools/get_document_symbols", key, map[string]any{"uri": rel}, 30*time.Second)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		reason, _ := r.ErrDetails()["reason"].(string)
		if r.Status != w.status || r.ErrCode() != w.code || w.reason != "" && reason != w.reason {
			t.Errorf("get_document_symbols %s: %d %s %q, want %d %s %q: %.300s", rel, r.Status, r.ErrCode(), reason, w.status, w.code, w.reason, r.Raw)
		}
		if n, _ := jget(r.Body, "totalCount").(float64); rel == "leave/a.py" && n == 0 {
			t.Errorf("get_document_symbols %s found nothing: %.300s", rel, r.Raw)
		}
	}
	// The edit engine reads what it edits: never a FIFO, never 8 GiB.
	for rel, w := range map[string]want{"sparse.py": {413, "FILE_TOO_LARGE", ""}, "x.py": {404, "FILE_NOT_FOUND", "not a regular file"}} {
		changes := map[string]any{fileURI(c.path(rel)): []any{edit(0, 0, 0, 0, "# edited\n")}}
		r, err := s.tryWithin("POST", "/v1/tools/apply_workspace_edit", key, map[string]any{"edit": map[string]any{"changes": changes}}, 30*time.Second)
		if err != nil {
			t.Errorf("apply_workspace_edit %s: %v", rel, err)
			continue
		}
		if reason, _ := r.ErrDetails()["reason"].(string); r.Status != w.status || r.ErrCode() != w.code || w.reason != "" && reason != w.reason {
			t.Errorf("apply_workspace_edit %s: %d %s %q, want %d %s %q", rel, r.Status, r.ErrCode(), reason, w.status, w.code, w.reason)
		}
	}
}

// dropCapabilities returns the wrapper that runs the server without
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH when the test runs as root
// (otherwise chmod 000 hides nothing from it), nil when not root.
func dropCapabilities(t *testing.T) []string {
	if os.Geteuid() != 0 {
		return nil
	}
	p, err := exec.LookPath("setpriv")
	if err != nil {
		t.Logf("as root without setpriv: unreadable files are read anyway (root ignores permissions)")
		return nil
	}
	return []string{p, "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--"}
}

// chaos is the hostile workspace and what the callers aim at.
type chaos struct {
	t           *testing.T
	ws, outside string
	mu          sync.Mutex // guards rnd and the churn's state
	rnd         *rand.Rand
	sockets     []net.Listener
	step        int
}

// targets are the workspace-relative paths the calls aim at: ordinary
// modules and every hostile thing.
var chaosTargets = []string{
	"a.py", "pkg/b.py", "pkg/__init__.py", "locked/c.py", "m001.py", "m002.py", "m003.py",
	"x.py", "sock.py", "zero.py", "urandom.py", "loop.py", "dangling.py", "outlink/secret.py", "leave/a.py",
	"sparse.py", "grow.py", "empty.py", "nul.py", "badutf8.py", "bom.py", "crlf.py", "new\nline.py",
	"\xed\xa0\x80surrogate.py", strings.Repeat("n", 250) + ".py", "many", "deep", "pkg", "locked", ".",
}

func (c *chaos) must(err error) {
	var le *os.LinkError
	if errors.As(err, &le) && le.Op == "rename" || err != nil && !os.IsExist(err) && !os.IsNotExist(err) {
		c.t.Error(err)
	}
}

func (c *chaos) path(rel string) string { return filepath.Join(c.ws, filepath.FromSlash(rel)) }

func (c *chaos) link(target, rel string) {
	os.Remove(c.path(rel))
	c.must(os.Symlink(target, c.path(rel)))
}

// special lays out files that are not regular files under Python names.
func (c *chaos) special() {
	os.Remove(c.path("x.py"))
	c.must(syscall.Mkfifo(c.path("x.py"), 0o644))
	os.Remove(c.path("sock.py"))
	if l, err := net.Listen("unix", c.path("sock.py")); err == nil {
		c.mu.Lock()
		c.sockets = append(c.sockets, l)
		c.mu.Unlock()
	} else if !strings.Contains(err.Error(), "too long") {
		c.t.Error(err)
	}
	c.link("/dev/zero", "zero.py")
	c.link("/dev/urandom", "urandom.py")
	c.link("loop2.py", "loop.py")
	c.link("loop.py", "loop2.py")
	c.link("missing.py", "dangling.py")
	c.link(c.outside, "outlink")
	c.link(filepath.Join(c.outside, "back"), "leave")
}

// oddContents writes files whose bytes or names are hostile.
func (c *chaos) oddContents() {
	f, err := os.Create(c.path("sparse.py"))
	if err == nil {
		c.must(f.Truncate(8 << 30))
		f.Close()
	}
	for rel, content := range map[string]string{
		"empty.py":                       "",
		"nul.py":                         strings.Repeat("\x00", 64<<10),
		"badutf8.py":                     "x = '\xff\xfe\xc3'\ndef f(:\n",
		"bom.py":                         "\ufeffdef bom():\n    return 1\n",
		"crlf.py":                        "def crlf():\r\n    return 2\r\n\rx = crlf()\r\n",
		"new\nline.py":                   "def newline():\n    pass\n",
		"\xed\xa0\x80surrogate.py":       "def surrogate():\n    pass\n",
		strings.Repeat("n", 250) + ".py": "def long_name():\n    pass\n",
	} {
		c.must(os.WriteFile(c.path(rel), []byte(content), 0o644))
	}
	deep := c.path("deep")
	for range 200 {
		deep = filepath.Join(deep, "d")
	}
	c.must(os.MkdirAll(deep, 0o755))
	c.must(os.WriteFile(filepath.Join(deep, "bottom.py"), []byte("def bottom():\n    pass\n"), 0o644))
	many := c.path("many")
	if _, err := os.Stat(filepath.Join(many, "e19999")); err != nil {
		c.must(os.MkdirAll(many, 0o755))
		for i := range 20_000 {
			c.must(os.WriteFile(filepath.Join(many, fmt.Sprintf("e%05d", i)), nil, 0o644))
		}
	}
}

// resize makes grow.py grow and shrink as it is read, and flips
// between truncation and appends on a module others import.
func (c *chaos) resize() {
	p := c.path("grow.py")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		c.t.Error(err)
		return
	}
	defer f.Close()
	line := []byte("def grown():\n    return 1\n")
	for range 2000 {
		f.Write(line)
	}
	f.Truncate(0)
	f.Write(line)
}

// permissions makes files and directories unreadable, replaces a file by
// a directory of its name and back, renames a package away and back,
// flips a package's __init__.py, and removes and recreates the root.
func (c *chaos) permissions() {
	c.mu.Lock()
	c.step++
	step := c.step
	c.mu.Unlock()
	switch step % 6 {
	case 0:
		c.must(os.Chmod(c.path("m001.py"), 0))
		c.must(os.Chmod(c.path("locked"), 0))
		time.Sleep(20 * time.Millisecond)
		c.must(os.Chmod(c.path("m001.py"), 0o644))
		c.must(os.Chmod(c.path("locked"), 0o755))
	case 1:
		p := c.path("m003.py")
		b, err := os.ReadFile(p)
		if err != nil {
			return
		}
		c.must(os.Remove(p))
		c.must(os.Mkdir(p, 0o755))
		c.must(os.WriteFile(filepath.Join(p, "inner.py"), []byte("x = 1\n"), 0o644))
		time.Sleep(20 * time.Millisecond)
		c.must(os.RemoveAll(p))
		c.must(os.WriteFile(p, b, 0o644))
	case 2:
		c.must(os.Rename(c.path("pkg"), c.path("pkg.away")))
		time.Sleep(20 * time.Millisecond)
		c.must(os.Rename(c.path("pkg.away"), c.path("pkg")))
	case 3:
		c.must(os.Rename(c.path("pkg/__init__.py"), c.path("pkg/__init__.py.off")))
		time.Sleep(20 * time.Millisecond)
		c.must(os.Rename(c.path("pkg/__init__.py.off"), c.path("pkg/__init__.py")))
	case 4:
		away := c.ws + ".away"
		c.must(os.Rename(c.ws, away))
		c.must(os.Mkdir(c.ws, 0o755))
		time.Sleep(50 * time.Millisecond)
		// An edit may have landed in the stand-in root meanwhile (the
		// engine writes beside the file it read before the swap).
		c.must(os.RemoveAll(c.ws))
		c.must(os.Rename(away, c.ws))
	case 5:
		c.must(os.Chmod(c.path("a.py"), 0o200))
		time.Sleep(20 * time.Millisecond)
		c.must(os.Chmod(c.path("a.py"), 0o644))
	}
}

// storm creates and removes thousands of files at once (past the
// watcher's queue) and rewrites the modules apply_workspace_edit edits.
func (c *chaos) storm() {
	dir := c.path("storm")
	c.must(os.MkdirAll(dir, 0o755))
	for i := range 3000 {
		c.must(os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.py", i)), []byte("s = 1\n"), 0o644))
	}
	for i := range 20 {
		c.must(os.WriteFile(c.path(fmt.Sprintf("m%03d.py", i)), []byte(fmt.Sprintf("from a import f\n\n\ndef h():\n    return f(%d)\n", i)), 0o644))
	}
	c.must(os.RemoveAll(dir))
}

// restore undoes what a phase may have left half done (a churn stopped
// between its two steps) so the next phase starts from a whole tree.
func (c *chaos) restore() {
	if _, err := os.Stat(c.ws + ".away"); err == nil {
		c.must(os.RemoveAll(c.ws))
		c.must(os.Rename(c.ws+".away", c.ws))
	}
	if _, err := os.Stat(c.path("pkg.away")); err == nil {
		c.must(os.Rename(c.path("pkg.away"), c.path("pkg")))
	}
	if _, err := os.Stat(c.path("pkg/__init__.py.off")); err == nil {
		c.must(os.Rename(c.path("pkg/__init__.py.off"), c.path("pkg/__init__.py")))
	}
	for _, rel := range []string{"m001.py", "a.py"} {
		c.must(os.Chmod(c.path(rel), 0o644))
	}
	c.must(os.Chmod(c.path("locked"), 0o755))
}

// call sends one tool or resource request at a random target and holds
// its answer to the document.
func (c *chaos) call(s *server, key string, ops map[string]chaosOperation, rnd *rand.Rand, timeout time.Duration) {
	names := slices.Sorted(maps.Keys(ops))
	name := names[rnd.IntN(len(names))]
	op := ops[name]
	target := chaosTargets[rnd.IntN(len(chaosTargets))]
	uri := target
	if rnd.IntN(2) == 0 {
		uri = fileURI(c.path(target))
	}
	var method, path string
	var body any
	switch name {
	case "file":
		method, path = "GET", "/v1/resources/file/"+url.PathEscape(target)
		if rnd.IntN(2) == 0 {
			path += "?lineRange=" + url.QueryEscape(`{"start":0,"end":3}`)
		}
	case "files":
		method, path = "GET", "/v1/resources/files?filter="+url.QueryEscape([]string{"**/*.py", "many/*", "deep/**"}[rnd.IntN(3)])
	case "structure":
		method, path = "GET", "/v1/resources/structure?maxDepth="+strconv.Itoa(rnd.IntN(20))
	case "read":
		method, path, body = "POST", "/v1/resources/read", map[string]any{"uri": "svc://file/" + target}
	default:
		method, path = "POST", "/v1/tools/"+name
		args := map[string]any{}
		for param, typ := range op.params {
			switch {
			case param == "uri":
				args[param] = uri
			case typ == "integer":
				args[param] = rnd.IntN(6)
			case typ == "boolean":
				args[param] = rnd.IntN(2) == 0
			}
		}
		switch name {
		case "get_call_hierarchy":
			args["direction"] = []string{"incoming", "outgoing"}[rnd.IntN(2)]
		case "find_symbols":
			args["query"] = []string{"f", "C", "grown", "bottom", "s"}[rnd.IntN(5)]
		case "rename_symbol":
			args["newName"] = "renamed"
		case "edit_symbol":
			args["symbol"], args["action"], args["text"] = "a.f", "insert_after", "\n\ndef added():\n    pass\n"
		case "get_code_actions":
			args["range"] = rng(0, 0, 3, 0)
		case "apply_workspace_edit":
			// Edits the modules the storm rewrites, and the hostile files.
			targets := []string{fmt.Sprintf("m%03d.py", rnd.IntN(20)), target}
			changes := map[string]any{}
			for _, rel := range targets {
				changes[fileURI(c.path(rel))] = []any{edit(0, 0, 0, 0, "# edited\n")}
			}
			args = map[string]any{"edit": map[string]any{"changes": changes}}
		}
		body = args
	}
	start := time.Now()
	r, err := s.tryWithin(method, path, key, body, timeout+10*time.Second)
	what := fmt.Sprintf("%s %q", name, target)
	switch {
	case err != nil:
		c.t.Errorf("%s: no answer after %v: %v", what, time.Since(start).Round(time.Millisecond), err)
	case r.Status == 500:
		c.t.Errorf("%s: 500: %.300s", what, r.Raw)
	case op.allowed[r.Status] == nil:
		c.t.Errorf("%s: status %d not declared: %.300s", what, r.Status, r.Raw)
	case r.Status != 200 && !slices.Contains(op.allowed[r.Status], r.ErrCode()):
		c.t.Errorf("%s: %d %s, not among the codes declared for %d (%v): %.300s", what, r.Status, r.ErrCode(), r.Status, op.allowed[r.Status], r.Raw)
	case bytes.Contains(r.Raw, []byte("do not touch")):
		c.t.Errorf("%s: the answer shows a file outside the workspace: %.300s", what, r.Raw)
	}
}

// callMCP calls a tool over MCP at a hostile target: a tool error is an
// answer, a broken session or a hang is not.
func (c *chaos) callMCP(cs *mcp.ClientSession, timeout time.Duration) {
	c.mu.Lock()
	target := chaosTargets[c.rnd.IntN(len(chaosTargets))]
	tool := []string{"get_hover", "get_diagnostics", "get_document_symbols"}[c.rnd.IntN(3)]
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+10*time.Second)
	defer cancel()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"uri": target, "line": 0, "character": 4}})
	if err != nil {
		c.t.Errorf("MCP %s %q: %v", tool, target, err)
		return
	}
	if strings.Contains(resultText(r), "do not touch") {
		c.t.Errorf("MCP %s %q shows a file outside the workspace", tool, target)
	}
}

// chaosOperation is one operation of the served document: its JSON
// parameters and the codes it declares per status.
type chaosOperation struct {
	params  map[string]string
	allowed map[int][]string
}

// servedOperations reads every tool and resource of the served document.
func servedOperations(t *testing.T, s *server) map[string]chaosOperation {
	doc := s.do("GET", "/v1/openapi.json", "", nil)
	var spec struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]struct {
							Type string `json:"type"`
						} `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Description string `json:"description"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc.Raw, &spec); err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`[A-Z][A-Z_]+[A-Z]`)
	out := map[string]chaosOperation{}
	for p, methods := range spec.Paths {
		for _, op := range methods {
			name := p[strings.LastIndex(p, "/")+1:]
			if name == "{path}" {
				name = "file"
			}
			if name == "call" || name == "health_check" {
				continue
			}
			o := chaosOperation{params: map[string]string{}, allowed: map[int][]string{}}
			for param, ps := range op.RequestBody.Content["application/json"].Schema.Properties {
				o.params[param] = ps.Type
			}
			for status, r := range op.Responses {
				n, _ := strconv.Atoi(status)
				o.allowed[n] = append(codes.FindAllString(r.Description, -1), "")
			}
			out[name] = o
		}
	}
	if len(out) < 18 {
		t.Fatalf("only %d operations in the served document", len(out))
	}
	return out
}

// mustLive fails unless the server process is alive (not exited, not a
// zombie) and answers health_check.
func (s *server) mustLive(t *testing.T, key, after string) {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil || bytes.Contains(status, []byte("State:\tZ")) || s.cmd.ProcessState != nil {
		t.Fatalf("after %s: the server process is gone (%v)\n%s", after, err, s.logText())
	}
	r, err := s.tryWithin("GET", "/v1/tools/health_check", key, nil, 10*time.Second)
	if err != nil || r.Status != 200 {
		t.Fatalf("after %s: health_check: %v %d %.300s", after, err, r.Status, r.Raw)
	}
}

// settledAnswers is what a server answers on the settled tree, as one
// string to compare: the files listed, symbols found, references and
// outlines, diagnostics of the ordinary modules.
func settledAnswers(t *testing.T, s *server, key, ws string) string {
	var out []string
	add := func(what string, r response, err error) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out = append(out, fmt.Sprintf("%s: %d %s", what, r.Status, normalizedAnswer(r.Body)))
	}
	r, err := s.tryWithin("GET", "/v1/resources/files?filter="+url.QueryEscape("**/*.py"), key, nil, time.Minute)
	add("files", r, err)
	for _, q := range []string{"f", "C", "g", "h", "grown", "bottom", "bom", "crlf", "newline", "surrogate", "long_name"} {
		r, err := s.tryWithin("POST", "/v1/tools/find_symbols", key, map[string]any{"query": q, "limit": 100}, time.Minute)
		add("find_symbols "+q, r, err)
	}
	r, err = s.tryWithin("POST", "/v1/tools/get_references", key, map[string]any{"uri": "a.py", "line": 3, "character": 4, "includeDeclaration": true}, time.Minute)
	add("references a.f", r, err)
	for _, rel := range []string{"a.py", "pkg/b.py", "m000.py", "bom.py", "crlf.py", "grow.py", "badutf8.py", "x.py", "sparse.py"} {
		r, err := s.tryWithin("POST", "/v1/tools/get_document_symbols", key, map[string]any{"uri": rel}, time.Minute)
		add("symbols "+rel, r, err)
		r, err = s.tryWithin("POST", "/v1/tools/get_diagnostics", key, map[string]any{"uri": rel}, time.Minute)
		add("diagnostics "+rel, r, err)
	}
	return strings.Join(out, "\n")
}

// normalizedAnswer drops what differs between two servers on one tree
// (timings, request ids, cache and progress figures).
func normalizedAnswer(v any) string {
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			m := map[string]any{}
			for k, e := range x {
				switch k {
				case "requestId", "elapsedMs", "durationMs", "timing", "cached", "lastModified", "generatedAt", "indexedAt", "progress":
					continue
				}
				m[k] = strip(e)
			}
			return m
		case []any:
			a := make([]any, len(x))
			for i, e := range x {
				a[i] = strip(e)
			}
			return a
		}
		return v
	}
	b, _ := json.Marshal(strip(v))
	return string(b)
}

// tryWithin is try with its own deadline.
func (s *server) tryWithin(method, path, key string, body any, within time.Duration) (response, error) {
	var rd *bytes.Reader
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(j)
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequestWithContext(ctx, method, s.base+path, rd)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, err = http.NewRequestWithContext(ctx, method, s.base+path, nil)
	}
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return response{}, err
	}
	r := response{Status: resp.StatusCode, Raw: buf.Bytes(), Header: resp.Header}
	_ = json.Unmarshal(r.Raw, &r.Body)
	return r, nil
}

// treeSnapshot maps each path under root (links not followed) to its
// content or link target.
func treeSnapshot(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = "-> " + target
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		default:
			out[p] = fi.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
