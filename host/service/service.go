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
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/openset"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/typeshed"
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
	// Starting: the runtime is still starting (calls wait for it), a
	// degraded state rather than an unhealthy one.
	Starting bool
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
	// HealthPython is the interpreter whose version health_check reports
	// ("": the workspace's, the one its index and diagnostics follow). It
	// is asked through the workspace's prober, so the interpreter they
	// share answers once for all three.
	HealthPython string
	// StateDir holds the index's disk cache (index/, and stubs/ for
	// typeshed's); "" keeps summaries in memory only.
	StateDir string
	// PreparedDir is a state directory made at build time (`pyws
	// prepare`): its stubs/ summaries are read where StateDir's miss.
	// "" none.
	PreparedDir string
	// Stubs is typeshed's verified stubs tree: navigation links the
	// standard library into it, one copy per Python version and platform
	// shared by every workspace. nil links none (external names stay
	// names).
	Stubs *typeshed.Stubs
	// Operations is the table to serve; nil serves Operations().
	Operations []Operation
	// IndexDelay postpones each workspace's first index build (a testing
	// aid: it makes the indexing state observable).
	IndexDelay time.Duration
	// IdleRelease: a workspace no request has used for this long is
	// released (see sweepIdle); zero or negative: never.
	IdleRelease time.Duration
	// Building, when set, is told when a workspace's index starts (true)
	// and stops (false) building or catching up with changed files:
	// `pyws serve` collects its heap less eagerly meanwhile.
	Building func(bool)
}

// Service runs operations. It is safe for concurrent use.
type Service struct {
	cfg     Config
	table   *Table
	started time.Time

	workspaces  *openset.Set[*workspaceState]
	maintenance atomic.Bool
	// stubs are typeshed's units, shared by every workspace's index (nil
	// without stubs or an indexer plugin).
	stubs *index.StubSets
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
	s := &Service{cfg: cfg, table: NewTable(ops), started: time.Now()}
	s.stubs = s.newStubSets()
	s.workspaces = openset.New(s.openWorkspace, cfg.IdleRelease, cfg.Logger.With("workspaces", "idle release"))
	return s
}

// Workspaces returns how many workspaces are open now, and how many were
// released after idling so far.
func (s *Service) Workspaces() (open int, released uint64) { return s.workspaces.Stats() }

// Version is the server's version, as health_check reports it.
func (s *Service) Version() string { return s.cfg.Version }

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
	ws, done, err := s.workspaces.Use(root)
	if err != nil && op.NeedsWorkspace() {
		return nil, err
	}
	if done != nil {
		defer done()
	}
	sess.ws = ws
	// Plugin calls queue per tenant, so one tenant's burst waits behind
	// itself rather than in front of every other tenant.
	res, err := s.runGuarded(plugins.WithTenant(ctx, tenantOf(key)), op, sess, args)
	if code := fault.CodeOf(err); code != "" && !slices.Contains(op.FaultCodes(), code) {
		// The OpenAPI document and the docs promise the row's codes only.
		s.cfg.Logger.Warn(UndeclaredFaultLog, "operation", op.Name, "code", code)
	}
	return res, err
}

// runGuarded runs op, turning a panic into an error the transports
// answer as SERVER_UNAVAILABLE with a request id: a query that trips a
// bug in the kernel's handling of someone's Python must fail alone, not
// end the process for every tenant. The HTTP routes had fiber's
// recovery, but the MCP SDK runs each request in a goroutine of its own,
// where a panic was fatal. Locks are released by their defers on the way.
func (s *Service) runGuarded(ctx context.Context, op *Operation, sess *Session, args toolspec.Args) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.cfg.Logger.Error(PanicLog, "operation", op.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("panic in %s: %v", op.Name, r)
		}
	}()
	return op.Run(ctx, sess, args)
}

// PanicLog is the message of the log line a recovered panic writes, with
// the operation, the panic and its stack.
const PanicLog = "panic in operation"

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
	// idx is the symbol index (nil without an indexer plugin); loaded
	// turns true once its first build finished.
	idx     atomic.Pointer[index.Index]
	loading sync.Mutex
	// diag is get_diagnostics' configuration, interpreter and caches.
	diag *diagState
	// building is Config.Building, nil none.
	building func(bool)
	// retryIn is the wait before the first load is tried again after its
	// listing failed (guarded by loading); closed stops those retries.
	retryIn time.Duration
	closed  atomic.Bool
}

// Waits between attempts of a first load whose listing failed.
const (
	firstRetry = 250 * time.Millisecond
	maxRetry   = 30 * time.Second
)

// The service keeps its workspaces in an openset: reopened when the root
// vanished, never released while the first load runs, and dropping one
// lets go of everything kept for it (index, diagnostics caches,
// interpreter answers), which nothing else holds.
func (st *workspaceState) Alive() bool   { return st.ws.RootExists() }
func (st *workspaceState) Settled() bool { return st.loaded.Load() }
func (st *workspaceState) Close()        { st.closed.Store(true); st.ws.Close() }

// openWorkspace opens root and starts its initial load.
func (s *Service) openWorkspace(root string) (*workspaceState, error) {
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	st := &workspaceState{root: root, ws: ws, diag: newDiagState(ws, s.cfg.Logger, s.cfg.StateDir), building: s.cfg.Building}
	// Watching walks the tree twice (0.15-0.35 s on Django, busy); until
	// it is done listings check directory mtimes, so it need not hold up
	// the load or the listener.
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if err := ws.Watch(); err != nil {
			s.cfg.Logger.Warn("workspace watch unavailable; changes are seen through directory checks", "root", root, "err", err)
		}
	}()
	if s.serves(IndexTool) {
		st.idx.Store(s.newIndex(st))
	}
	ws.Subscribe(func([]string) { go st.load(s.cfg.Logger, 0) })
	go func() {
		st.load(s.cfg.Logger, s.cfg.IndexDelay)
		// A file created after the first listing, before the watch was
		// complete, sent no event: list once more then.
		<-watched
		st.load(s.cfg.Logger, 0)
	}()
	if s.serves("get_diagnostics") {
		go st.warmDiagnostics()
	}
	return st, nil
}

// Preload opens root and starts loading it before the first request; it
// is never released for idling (the operator asked for it to be ready).
func (s *Service) Preload(root string) error { return s.workspaces.Pin(root) }

// load lists the workspace and, the first time, builds its index (loaded
// turns true when it is built); later calls (change notifications) bring
// the index up to date in the background so queries find it fresh.
func (st *workspaceState) load(log *slog.Logger, delay time.Duration) {
	st.loading.Lock()
	defer st.loading.Unlock()
	defer func() {
		// A bug the workspace's files trip in the build or a refresh runs
		// in this goroutine, which no request's recovery covers: the
		// tenant loses navigation (as when the build fails), the process
		// and every other tenant go on. The index may be half updated,
		// so it is dropped, not kept.
		if r := recover(); r != nil {
			log.Error("index build panicked; navigation is unavailable until the workspace is opened again", "root", st.root,
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			st.idx.Store(nil)
			st.loaded.Store(true)
		}
	}()
	files, err := st.ws.PythonFiles(context.Background())
	if err != nil {
		log.Warn("workspace load failed", "root", st.root, "err", err)
		// A tree too large to list in time stays so; a change retries it.
		if fe, ok := fault.As(err); !st.loaded.Load() && (!ok || fe.Code != fault.ScanTimeout) {
			st.retryFirstLoad(log)
		}
		return
	}
	st.retryIn = 0
	st.files.Store(int64(len(files)))
	x := st.idx.Load()
	if x == nil {
		st.loaded.Store(true)
		return
	}
	if st.building != nil {
		st.building(true)
		defer st.building(false)
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
		ph := x.Phases()
		log.Info("workspace indexed", "root", st.root, "files", x.FileCount(), "elapsed", time.Since(start).Round(time.Millisecond),
			"target", ph.Target.Round(time.Millisecond), "list", ph.List.Round(time.Millisecond), "summarize", ph.Summarize.Round(time.Millisecond),
			"stubs", ph.Stubs.Round(time.Millisecond), "link", ph.Link.Round(time.Millisecond))
	}
	st.loaded.Store(true)
}

// retryFirstLoad tries the first load again later, waiting twice as long
// each time up to maxRetry. Without it a listing that failed (the root
// renamed away and back while the load began, a scan over its time limit)
// left the workspace answering WORKSPACE_NOT_LOADED until some file
// changed, which may be never. The caller holds loading.
func (st *workspaceState) retryFirstLoad(log *slog.Logger) {
	st.retryIn = min(max(2*st.retryIn, firstRetry), maxRetry)
	time.AfterFunc(st.retryIn, func() {
		if !st.closed.Load() && !st.loaded.Load() {
			st.load(log, 0)
		}
	})
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

// Close stops watchers and the idle sweep, and drops every workspace.
func (s *Service) Close() { s.workspaces.Close() }
