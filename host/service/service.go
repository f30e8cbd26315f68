// Package service is the kernel's front door and orchestration only: the
// operation table's rows (toolspec specs and their handlers) and the code
// that runs them for a caller. It resolves the caller's workspace, reads
// through host/workspace, routes to the index or a plugin (whose answers
// host/pluginresult checks), writes only through host/edits, and enforces
// the tier's caps. The api calls Run and renders what comes back.
package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Plugins is what the service needs of the plugin runtime.
type Plugins interface {
	Call(ctx context.Context, tool string, req *abi.Request) (json.RawMessage, error)
	Tools() []string
	Health() PluginHealth
}

// PluginHealth summarises the runtime for health_check.
type PluginHealth struct {
	WorkersWanted int
	WorkersAlive  int
	Problem       string // non-empty when something is wrong
}

// Config wires the service.
type Config struct {
	DefaultWorkspace string // used by keys without a workspace of their own
	Plugins          Plugins
	Edits            *edits.Engine
	Metrics          *metrics.Recorder
	Logger           *slog.Logger
	Version          string
	EngineVersion    string
	PythonVersion    string
	// StateDir holds the index's disk cache (index/); "" keeps summaries
	// in memory only.
	StateDir string
	// Operations is the table to serve; nil serves Operations().
	Operations []Operation
	// IndexDelay postpones each workspace's first index build (a testing
	// aid: it makes the indexing state observable).
	IndexDelay time.Duration
	// IdleRelease: a workspace no request has used for this long is
	// released (see sweepIdle); zero or negative: never.
	IdleRelease time.Duration
}

// Service runs operations. It is safe for concurrent use.
type Service struct {
	cfg     Config
	table   *Table
	started time.Time

	mu          sync.Mutex
	workspaces  map[string]*workspaceState
	preloaded   map[string]bool // roots the operator asked to keep ready (Preload)
	released    atomic.Uint64   // workspaces released after idling
	maintenance atomic.Bool
	stop        chan struct{} // closed by Close: ends the idle sweep
	closeOnce   sync.Once
}

// New returns a service over cfg.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.New()
	}
	ops := cfg.Operations
	if ops == nil {
		ops = Operations()
	}
	s := &Service{cfg: cfg, table: NewTable(ops), started: time.Now(), workspaces: map[string]*workspaceState{},
		preloaded: map[string]bool{}, stop: make(chan struct{})}
	if cfg.IdleRelease > 0 {
		go s.sweepIdle(min(max(cfg.IdleRelease/4, 10*time.Millisecond), time.Minute))
	}
	return s
}

// Workspaces returns how many workspaces are open now, and how many were
// released after idling so far.
func (s *Service) Workspaces() (open int, released uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.workspaces), s.released.Load()
}

// Table returns the operation table.
func (s *Service) Table() *Table { return s.table }

// Metrics returns the recorder.
func (s *Service) Metrics() *metrics.Recorder { return s.cfg.Metrics }

// Observe records a finished request.
func (s *Service) Observe(op, code string, d time.Duration) { s.cfg.Metrics.Observe(op, code, d) }

// SetMaintenance switches maintenance mode: every operation but
// health_check answers MAINTENANCE_MODE.
func (s *Service) SetMaintenance(on bool) { s.maintenance.Store(on) }

// Session is one caller's view: their key, tier limits and workspace.
type Session struct {
	Key    *tenants.Key
	Limits tiers.Limits
	svc    *Service
	ws     *workspaceState
}

// UndeclaredFaultLog is the warning logged when an operation answers an
// error code its row does not declare (the end-to-end harness fails on it).
const UndeclaredFaultLog = "operation answered a code its table row does not declare"

// Run executes op for the caller holding key.
func (s *Service) Run(ctx context.Context, key *tenants.Key, op *Operation, args toolspec.Args) (any, error) {
	if s.maintenance.Load() && op.NeedsWorkspace() {
		return nil, fault.New(fault.MaintenanceMode, nil, "the server is under maintenance; retry later")
	}
	sess := &Session{Key: key, Limits: tiers.For(key.Tier), svc: s}
	root := key.Workspace
	if root == "" {
		root = s.cfg.DefaultWorkspace
	}
	ws, err := s.use(root)
	if err != nil && op.NeedsWorkspace() {
		return nil, err
	}
	if ws != nil {
		defer ws.done()
	}
	sess.ws = ws
	// Plugin calls queue per tenant, so one tenant's burst waits behind
	// itself rather than in front of every other tenant.
	res, err := op.Run(plugins.WithTenant(ctx, tenantOf(key)), sess, args)
	if code := fault.CodeOf(err); code != "" && !slices.Contains(op.FaultCodes(), code) {
		// The OpenAPI document and the docs promise the row's codes only.
		s.cfg.Logger.Warn(UndeclaredFaultLog, "operation", op.Name, "code", code)
	}
	return res, err
}

// tenantOf names the caller for fair queueing: the key's tenant, or the
// key itself when it names none.
func tenantOf(key *tenants.Key) string {
	if key.Tenant != "" {
		return key.Tenant
	}
	return "key:" + key.ID
}

// workspaceState is one served workspace and its loading progress.
type workspaceState struct {
	root   string
	ws     *workspace.Workspace
	loaded atomic.Bool
	files  atomic.Int64
	err    error
	// idx is the symbol index (nil without an indexer plugin); loaded
	// turns true once its first build finished.
	idx      atomic.Pointer[index.Index]
	loading  sync.Mutex
	building atomic.Bool
	// diag is get_diagnostics' configuration, interpreter and caches.
	diag *diagState
	// inUse counts the requests using the state; lastUsed is when the
	// last one started or ended (unix ns). The idle sweep releases only
	// a workspace nobody uses.
	inUse    atomic.Int64
	lastUsed atomic.Int64
}

// done ends one request's use of st.
func (st *workspaceState) done() {
	st.lastUsed.Store(time.Now().UnixNano())
	st.inUse.Add(-1)
}

// use returns root's state for a request, counted in use until done.
func (s *Service) use(root string) (*workspaceState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.workspaceLocked(root)
	if err != nil {
		return nil, err
	}
	st.inUse.Add(1)
	st.lastUsed.Store(time.Now().UnixNano())
	return st, nil
}

// workspace returns the state of root, opening it (and starting its
// initial load) on first use. A workspace that vanished is reopened on the
// next request rather than cached as broken.
func (s *Service) workspace(root string) (*workspaceState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.workspaceLocked(root)
}

func (s *Service) workspaceLocked(root string) (*workspaceState, error) {
	if st, ok := s.workspaces[root]; ok {
		if st.ws.RootExists() {
			return st, nil
		}
		s.dropLocked(root)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	st := &workspaceState{root: root, ws: ws, diag: newDiagState(ws.Root(), s.cfg.Logger)}
	st.lastUsed.Store(time.Now().UnixNano())
	if err := ws.Watch(); err != nil {
		s.cfg.Logger.Warn("workspace watch unavailable; changes are seen through directory checks", "root", root, "err", err)
	}
	if s.serves(IndexTool) {
		st.idx.Store(s.newIndex(st))
	}
	ws.Subscribe(func([]string) { go st.load(s.cfg.Logger, 0) })
	s.workspaces[root] = st
	go st.load(s.cfg.Logger, s.cfg.IndexDelay)
	if s.serves("get_diagnostics") {
		go st.warmDiagnostics()
	}
	return st, nil
}

// Preload opens root and starts loading it before the first request; the
// idle sweep never releases it (the operator asked for it to be ready).
func (s *Service) Preload(root string) error {
	s.mu.Lock()
	s.preloaded[root] = true
	s.mu.Unlock()
	_, err := s.workspace(root)
	return err
}

// sweepIdle releases, every period until Close, the workspaces no request
// has used for Config.IdleRelease: their index, diagnostics caches and
// interpreter answers go, and the next request opens the workspace again
// (the index comes back from its on-disk cache in about a second).
func (s *Service) sweepIdle(period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		}
		s.releaseIdle(time.Now())
	}
}

func (s *Service) releaseIdle(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for root, st := range s.workspaces {
		idle := now.Sub(time.Unix(0, st.lastUsed.Load()))
		// A workspace still loading is busy (its build holds the state);
		// it is released once loaded and idle.
		if s.preloaded[root] || st.inUse.Load() > 0 || !st.loaded.Load() || idle < s.cfg.IdleRelease {
			continue
		}
		s.cfg.Logger.Info("workspace released after idling", "root", root, "idle", idle.Round(time.Second))
		s.dropLocked(root)
		s.released.Add(1)
	}
}

// load lists the workspace and, the first time, builds its index (loaded
// turns true when it is built); later calls (change notifications) bring
// the index up to date in the background so queries find it fresh.
func (st *workspaceState) load(log *slog.Logger, delay time.Duration) {
	st.loading.Lock()
	defer st.loading.Unlock()
	files, err := st.ws.PythonFiles(context.Background())
	if err != nil {
		log.Warn("workspace load failed", "root", st.root, "err", err)
		return
	}
	st.files.Store(int64(len(files)))
	x := st.idx.Load()
	if x == nil {
		st.loaded.Store(true)
		return
	}
	if x.Built() {
		if err := x.Rescan(context.Background()); err != nil {
			log.Warn("index refresh failed", "root", st.root, "err", err)
		}
		return
	}
	if delay > 0 {
		time.Sleep(delay)
	}
	start := time.Now()
	if err := x.Build(context.Background()); err != nil {
		log.Error("index build failed; navigation is unavailable", "root", st.root, "err", err)
		st.idx.Store(nil)
	} else {
		log.Info("workspace indexed", "root", st.root, "files", x.FileCount(), "elapsed", time.Since(start).Round(time.Millisecond))
	}
	st.loaded.Store(true)
}

// progress is the first load's progress, 0-100.
func (st *workspaceState) progress() int {
	if st.loaded.Load() {
		return 100
	}
	if x := st.idx.Load(); x != nil {
		return x.Progress()
	}
	return 0
}

// requireLoaded refuses analysis while the first load is running.
func (st *workspaceState) requireLoaded(code string) error {
	if st.loaded.Load() {
		return nil
	}
	return fault.New(code, fault.Details{"indexingProgress": st.progress()}, "the workspace is still being indexed; retry shortly (see health_check indexingProgress)")
}

// dropLocked forgets the workspace served at root: its watcher stops, and
// everything kept for it (index, diagnostics caches, interpreter answers)
// goes with its state, which nothing else holds.
func (s *Service) dropLocked(root string) {
	if st, ok := s.workspaces[root]; ok {
		st.ws.Close()
		delete(s.workspaces, root)
	}
}

// Close stops watchers and the idle sweep, and drops every workspace.
func (s *Service) Close() {
	s.closeOnce.Do(func() { close(s.stop) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for root := range s.workspaces {
		s.dropLocked(root)
	}
}
