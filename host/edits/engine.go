package edits

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Resolver confines a file URI to the workspace.
type Resolver interface {
	// Root is the workspace root: absolute, without symbolic links.
	Root() string
	// ResolveURIDir returns the cleaned absolute path as the caller named
	// it, its root-relative form (for messages), and the root-relative
	// directory holding the file with every symbolic link evaluated ("" for
	// the root), or a *fault.Error (FILE_NOT_FOUND, PERMISSION_DENIED) of
	// its own. The file's own name is left unevaluated: a link there is
	// refused, not followed. rel is "" when uri names the root itself.
	ResolveURIDir(uri string) (abs, rel, realDir string, err error)
}

// Limits are the tier's caps on one apply; 0 means unlimited.
type Limits struct {
	MaxFiles        int // files (keys of the changes map) per edit
	MaxEditsPerFile int // edits per file
}

// Result is the apply_workspace_edit result object.
type Result struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
	FilesModified int    `json:"filesModified"`
	TotalEdits    int    `json:"totalEdits"`
}

// Option adjusts an Engine at Open.
type Option func(*Engine)

// WithMemory bounds the fingerprints kept by Remember: at most capacity
// entries, each forgotten ttl after it was last registered.
func WithMemory(capacity int, ttl time.Duration) Option {
	return func(e *Engine) { e.memory = newMemory(capacity, ttl, e.memory.now) }
}

// Engine applies workspace edits. It is safe for concurrent use.
type Engine struct {
	stateDir   string
	journalDir string
	lockDir    string

	files  fileLocks
	memory *memory
	seq    atomic.Uint64
	noSync bool // skip fsync (fuzzing only)

	mu        sync.Mutex
	recovered []Recovery
}

// Recovery reports what recovery did with one journal it found.
type Recovery struct {
	Journal   string   // file name in stateDir/journal
	Committed bool     // rolled forward (true) or discarded (false)
	Corrupt   bool     // a committed journal whose checksum failed; kept as .corrupt
	Rewritten []string // files brought to the new content
	Current   []string // files that already had the new content
	Conflicts []string // files changed since the crash (or missing), left alone
}

// Open prepares stateDir (created if needed, mode 0700) and recovers any
// apply that was interrupted, before returning.
func Open(stateDir string, opts ...Option) (*Engine, error) {
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return nil, fmt.Errorf("edits: state dir %q invalid: %w", stateDir, err)
	}
	e := &Engine{
		stateDir:   abs,
		journalDir: filepath.Join(abs, "journal"),
		lockDir:    filepath.Join(abs, "locks"),
		memory:     newMemory(defaultMemoryEntries, defaultMemoryTTL, time.Now),
	}
	e.files.m = map[string]*fileLock{}
	for _, o := range opts {
		o(e)
	}
	for _, d := range []string{e.stateDir, e.journalDir, e.lockDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("edits: state dir unusable: %w", err)
		}
	}
	if err := e.recover(); err != nil {
		return nil, err
	}
	return e, nil
}

// Recovered lists what recovery has done since Open, oldest first.
func (e *Engine) Recovered() []Recovery {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Recovery(nil), e.recovered...)
}

// Remember registers edits a tool generated for the file at abs (the
// Resolver's path) against content whose SHA-256 is contentSHA256 (hex).
// Applying the same edit set later is refused with FILE_MODIFIED once the
// file's content has another hash.
func (e *Engine) Remember(abs string, edits []abi.TextEdit, contentSHA256 string) {
	e.memory.remember(fingerprint(abs, edits), contentSHA256)
}

// file is one entry of the changes map on its way through Apply.
type file struct {
	uri   string
	abs   string // as the caller named it: Remember's fingerprints
	rel   string
	edits []abi.TextEdit

	root    string // the workspace root
	realDir string // root-relative, links evaluated
	real    string // root/realDir/name: locks, the journal, duplicates
	place   *place // opened by prepare, under the lock

	// set by validation
	old, new []byte
	mode     os.FileMode
	uid, gid int
	changed  bool
	temp     string
	tempMade bool
}

// Apply validates and applies changes atomically. See the package comment
// for the contract.
func (e *Engine) Apply(ctx context.Context, r Resolver, changes map[string][]abi.TextEdit, lim Limits) (Result, error) {
	if len(changes) == 0 {
		return Result{Applied: true}, nil
	}
	if err := checkRequest(changes, lim); err != nil {
		return failed(err)
	}
	if err := ctx.Err(); err != nil {
		return failed(err)
	}
	// Journals left by a dead process (or by a failed apply here) are
	// completed before new work, so this apply sees settled files.
	_ = e.recover()

	files, err := resolveAll(r, changes)
	if err != nil {
		return failed(err)
	}
	paths := make([]string, len(files))
	total := 0
	for i, f := range files {
		paths[i] = f.real
		total += len(f.edits)
	}
	release, err := e.lock(ctx, paths)
	if err != nil {
		return failed(err)
	}
	defer release()
	defer func() {
		for _, f := range files {
			if f.place != nil {
				f.place.close()
			}
		}
	}()

	modified := 0
	for _, f := range files {
		if err := e.prepare(f); err != nil {
			return failed(err)
		}
		if f.changed {
			modified++
		}
	}
	if err := ctx.Err(); err != nil {
		return failed(err)
	}
	if modified > 0 {
		if err := e.write(files); err != nil {
			return failed(err)
		}
	}
	return Result{Applied: true, FilesModified: modified, TotalEdits: total}, nil
}

// failed turns err into a refusal result.
func failed(err error) (Result, error) {
	reason := "internal error: the edit was not applied"
	if fe, ok := fault.As(err); ok {
		reason = fe.Code + ": " + fe.Message
	} else if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		reason = "cancelled: the edit was not applied"
	} else if errors.Is(err, errPending) {
		reason = "internal error: the edit is committed and will be completed by recovery"
	}
	return Result{FailureReason: reason}, err
}

// checkRequest enforces limits and newText validity before any I/O.
func checkRequest(changes map[string][]abi.TextEdit, lim Limits) error {
	if lim.MaxFiles > 0 && len(changes) > lim.MaxFiles {
		return fault.New(fault.InvalidParameter,
			fault.Details{"parameter": "changes", "limit": lim.MaxFiles, "value": len(changes)},
			"edit touches %d files; the limit is %d files per edit", len(changes), lim.MaxFiles)
	}
	for _, uri := range sortedKeys(changes) {
		edits := changes[uri]
		if lim.MaxEditsPerFile > 0 && len(edits) > lim.MaxEditsPerFile {
			return fault.New(fault.InvalidParameter,
				fault.Details{"parameter": "changes[" + uri + "]", "uri": uri, "limit": lim.MaxEditsPerFile, "value": len(edits)},
				"%s: %d edits; the limit is %d edits per file", uri, len(edits), lim.MaxEditsPerFile)
		}
		for i, ed := range edits {
			if !utf8.ValidString(ed.NewText) {
				return fault.New(fault.InvalidParameter,
					fault.Details{"parameter": fmt.Sprintf("changes[%s][%d].newText", uri, i), "uri": uri, "editIndex": i, "reason": "not valid UTF-8"},
					"%s: edit %d: newText is not valid UTF-8", uri, i)
			}
		}
	}
	return nil
}

// resolveAll resolves every URI and returns the files sorted by path.
func resolveAll(r Resolver, changes map[string][]abi.TextEdit) ([]*file, error) {
	files := make([]*file, 0, len(changes))
	byPath := make(map[string]string, len(changes))
	root := r.Root()
	for _, uri := range sortedKeys(changes) {
		abs, rel, realDir, err := r.ResolveURIDir(uri)
		if err != nil {
			return nil, err
		}
		if !filepath.IsAbs(abs) || filepath.Clean(abs) != abs {
			return nil, fmt.Errorf("edits: resolver returned a path that is not clean and absolute: %q", abs)
		}
		if rel == "" {
			return nil, fault.New(fault.FileNotFound, fault.Details{"uri": uri, "path": rel, "reason": "not a regular file"},
				"%s is the workspace's root directory, not a file", uri)
		}
		real := filepath.Join(root, realDir, filepath.Base(abs))
		// Two spellings of one file (a.py, leave/a.py through a link back
		// in) would each be validated against the old bytes and the second
		// rename would drop the first's edits.
		if other, dup := byPath[real]; dup {
			return nil, fault.New(fault.ConflictingEdits,
				fault.Details{"uris": []string{other, uri}, "path": rel},
				"%s and %s name the same file", other, uri)
		}
		byPath[real] = uri
		files = append(files, &file{uri: uri, abs: abs, rel: rel, edits: changes[uri], root: root, realDir: realDir, real: real})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].real < files[j].real })
	return files, nil
}

func sortedKeys(m map[string][]abi.TextEdit) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
