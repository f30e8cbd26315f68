package pyright

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Corpus is a real code base installed on the machine, copied into a
// fresh workspace for timing, with a well-used symbol to ask references
// of.
type Corpus struct {
	Name string
	Src  string // installed tree
	// Sub is the directory the copy goes into under the workspace root
	// ("" copies Src's contents to the root itself).
	Sub string
	// Rel, Line, Char name the symbol (0-based position).
	Rel        string
	Line, Char int
}

// Corpora are the timing workspaces: Debian's python3-django (class Model
// in django/db/models/base.py) and CPython's standard library (def
// get_running_loop in asyncio/events.py: asyncio reaches its own modules
// by relative imports, which pyright, like pyws, resolves to the
// workspace's files; an absolute stdlib import, such as posixpath's
// users' `import os`, pyright resolves to typeshed's stubs instead, so
// the two would answer different questions).
var Corpora = []Corpus{
	{Name: "django", Src: "/usr/lib/python3/dist-packages/django", Sub: "django", Rel: "django/db/models/base.py", Line: 403, Char: 6},
	{Name: "stdlib", Src: "/usr/lib/python3.11", Rel: "asyncio/events.py", Line: 715, Char: 4},
}

// CorpusNamed returns the corpus called name.
func CorpusNamed(name string) (Corpus, bool) {
	for _, c := range Corpora {
		if c.Name == name {
			return c, true
		}
	}
	return Corpus{}, false
}

// Installed reports whether the corpus's tree is on this machine.
func (c Corpus) Installed() bool {
	_, err := os.Stat(c.Src)
	return err == nil
}

// CopyTo copies the corpus under root, without __pycache__ and, for the
// standard library, without the third-party site-packages/dist-packages;
// it returns root with symlinks resolved (the path the engines report).
func (c Corpus) CopyTo(root string) (string, error) {
	dst := filepath.Join(root, c.Sub)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", err
	}
	script := fmt.Sprintf("cp -r %q/. %q && find %q -name __pycache__ -prune -exec rm -rf {} + ; rm -rf %q/site-packages %q/dist-packages", c.Src, dst, root, root, root)
	if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copy %s: %v %s", c.Src, err, out)
	}
	return filepath.EvalSymlinks(root)
}

// Timing is pyright's start-up to references on a corpus: the first
// answer (often the opened file's references alone) and the complete one.
type Timing struct {
	First, Complete   time.Duration // from the process's start
	FirstCount, Count int
}

// FirstReferences is pyright's start-up to references timing on a copy of
// c at root: it starts server, asks references of c's symbol, and asks
// again every 500 ms until the count has not changed for 10 s (measured
// on Django: pyright answers the first requests with the opened file's
// references alone, 2 of 45, then one request waits ~20 s while it binds
// every file holding the name). Complete is when the last count came.
// It returns the running client (the caller closes it).
func FirstReferences(server, root string, c Corpus) (Timing, *Client, error) {
	start := time.Now()
	client, err := Start(server, root)
	if err != nil {
		return Timing{}, nil, err
	}
	tm, err := client.FirstReferences(start, root, c)
	if err != nil {
		return tm, nil, err
	}
	return tm, client, nil
}

// FirstReferences is the timing of FirstReferences on a client started at
// start (a caller that watches the process from its launch starts it
// itself). On failure it closes the client.
func (cl *Client) FirstReferences(start time.Time, root string, c Corpus) (Timing, error) {
	const stable, limit = 10 * time.Second, 5 * time.Minute
	var tm Timing
	fail := func(err error) (Timing, error) {
		cl.Close()
		return tm, err
	}
	abs := filepath.Join(root, c.Rel)
	refs, err := cl.References(abs, c.Line, c.Char, true)
	if err != nil {
		return fail(err)
	}
	tm.First, tm.FirstCount = time.Since(start), len(refs)
	tm.Complete, tm.Count = tm.First, len(refs)
	for changed := time.Now(); time.Since(changed) < stable && time.Since(start) < limit; {
		time.Sleep(500 * time.Millisecond)
		again, err := cl.References(abs, c.Line, c.Char, true)
		if err != nil {
			return fail(err)
		}
		if len(again) != tm.Count {
			tm.Complete, tm.Count = time.Since(start), len(again)
			changed = time.Now()
		}
	}
	// Both symbols are used across their workspace: a count this low
	// means the position no longer names them.
	if tm.Count < 2 {
		return fail(fmt.Errorf("%d references to %s:%d:%d, want the declaration and its uses", tm.Count, c.Rel, c.Line, c.Char))
	}
	return tm, nil
}
