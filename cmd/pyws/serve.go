package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pyws/pyws/api"
	"github.com/pyws/pyws/host/edits"
	"github.com/pyws/pyws/host/metrics"
	"github.com/pyws/pyws/host/plugins"
	"github.com/pyws/pyws/host/ratelimit"
	"github.com/pyws/pyws/host/service"
	"github.com/pyws/pyws/host/tenants"
	"github.com/pyws/pyws/host/tiers"
	"github.com/pyws/pyws/wasm"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// kernelFlags are the flags of every command that runs the service
// itself (serve, mcp): the workspace, plugins, stubs, state and logging.
type kernelFlags struct {
	workspace, state, python, logLevel, stubs *string
	prepared                                  *string
	workers, memMiB, perPlugin                *int
	rssLimit, idleGrowth                      *int
	timeout, idleAfter, idleRelease           *time.Duration
	spareAfter, indexDelay                    *time.Duration
	plugins                                   stringList
}

func addKernelFlags(fs *flag.FlagSet) *kernelFlags {
	k := &kernelFlags{}
	k.workspace = fs.String("workspace", "", "default workspace directory (keys without their own workspace use it)")
	k.state = fs.String("state", defaultStateDir(), "state directory: compilation cache, edit journal")
	k.workers = fs.Int("workers", runtime.GOMAXPROCS(0), "plugin worker processes")
	k.timeout = fs.Duration("plugin-timeout", plugins.DefaultTimeout, "default deadline of one plugin call, counted from its arrival (a manifest's timeoutMs overrides it)")
	k.memMiB = fs.Int("plugin-memory", plugins.DefaultMemoryLimitMiB, "memory cap of one plugin instance, MiB (a manifest's memoryLimitMiB overrides it)")
	k.perPlugin = fs.Int("plugin-max-workers", 0, "workers one plugin's calls may hold at once (default: --workers minus one, at least 1)")
	k.rssLimit = fs.Int("worker-rss-limit-mib", plugins.DefaultWorkerRSSLimitMiB, "replace a plugin worker whose resident memory is above this after a call, MiB (negative: never)")
	k.idleGrowth = fs.Int("worker-idle-growth-mib", plugins.DefaultIdleGrowthMiB, "replace a plugin worker idle for --worker-idle-recycle whose resident memory grew by more than this since it started, MiB (negative: never)")
	k.idleAfter = fs.Duration("worker-idle-recycle", plugins.DefaultIdleRecycleAfter, "how long a worker stays idle, grown past --worker-idle-growth-mib, before it is replaced")
	k.idleRelease = fs.Duration("workspace-idle-release", 15*time.Minute, "release a workspace (its index and caches) that no request used for this long; the next request reopens it, the index from its on-disk cache (0: never; the --workspace served by default is never released)")
	k.spareAfter = fs.Duration("plugin-spare-after", plugins.DefaultSpareAfter, "a plugin call running this long while other calls wait for a worker gets a spare worker to stand in for it (negative: never)")
	k.python = fs.String("python", "", "interpreter whose version health_check reports (default: the workspace's, the one its index and diagnostics follow: [tool.pyws] python, else .venv or venv, else python3 on PATH)")
	k.logLevel = fs.String("log-level", "info", "debug, info, warn or error (logs are JSON lines on stderr, one per request at info)")
	k.indexDelay = fs.Duration("index-delay", 0, "wait this long before each workspace's first index build (testing aid: makes the indexing state observable)")
	k.stubs = fs.String("stubs", "", "typeshed stubs directory, as 'make stubs' writes it (default: typeshed/ beside the binary)")
	k.prepared = fs.String("prepared", defaultPreparedDir(), "prepared state from 'pyws prepare' (compiled plugins, typeshed summaries), used where --state has none yet; \"\" for none (default: prepared/ beside the binary)")
	fs.Var(&k.plugins, "plugins", "plugin directory; repeatable, later directories override earlier ones per tool (default: plugins/ beside the binary)")
	return k
}

// logger is the JSON logger on stderr at --log-level; stdout stays free
// (`pyws mcp` speaks the protocol on it).
func (k *kernelFlags) logger() (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(*k.logLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	return logger, nil
}

// kernel is a running service and what it stands on; close releases them.
type kernel struct {
	root    string
	plugins *pluginRuntime // still starting when start returns
	svc     *service.Service
	metrics *metrics.Recorder
	closers []func()
}

// pluginFailure receives the plugin runtime's start error, if it fails
// (the service runs meanwhile; a server without its plugins must stop).
func (k *kernel) pluginFailure() <-chan error {
	c := make(chan error, 1)
	go func() {
		<-k.plugins.Started()
		if err := k.plugins.Err(); err != nil {
			c <- fmt.Errorf("plugins: %w", err)
		}
	}()
	return c
}

func (k *kernel) close() {
	for i := len(k.closers) - 1; i >= 0; i-- {
		k.closers[i]()
	}
}

// start opens the stubs, the plugin runtime, the edit journal and the
// service over --workspace, and begins loading it; building, when set,
// is told of index builds (service.Config.Building).
func (k *kernelFlags) start(ctx context.Context, logger *slog.Logger, building func(bool)) (_ *kernel, err error) {
	if *k.workspace == "" {
		return nil, errors.New("--workspace DIR is required")
	}
	if *k.stubs == "" {
		*k.stubs = defaultStubsDir()
	}
	stubs, err := openStubs(*k.stubs)
	if err != nil {
		return nil, err
	}
	kn := &kernel{}
	defer func() {
		if err != nil {
			kn.close()
		}
	}()
	if kn.root, err = filepath.Abs(*k.workspace); err != nil {
		return nil, err
	}
	if len(k.plugins) == 0 {
		k.plugins = stringList{defaultPluginDir()}
	}
	if err := os.MkdirAll(*k.state, 0o700); err != nil {
		return nil, err
	}
	seedCompileCache(*k.prepared, *k.state, logger)
	rt, err := startPlugins(ctx, plugins.Config{
		Dirs:                k.plugins,
		CacheDir:            compileCacheDir(*k.state),
		Workers:             *k.workers,
		DefaultTimeout:      *k.timeout,
		MemoryLimitMiB:      *k.memMiB,
		MaxWorkersPerPlugin: *k.perPlugin,
		WorkerRSSLimitMiB:   *k.rssLimit,
		IdleGrowthMiB:       *k.idleGrowth,
		IdleRecycleAfter:    *k.idleAfter,
		SpareAfter:          *k.spareAfter,
		Warm:                []string{service.IndexTool}, // the workspace's build starts at once
		Logger:              logger,
	})
	if err != nil {
		return nil, err
	}
	kn.closers = append(kn.closers, rt.Close)
	kn.plugins = rt
	engine, err := edits.Open(filepath.Join(*k.state, "edits"))
	if err != nil {
		return nil, err
	}
	logRecoveries(logger, engine.Recovered())
	rec := metrics.New()
	registerPluginMetrics(rec, rt)
	svc := service.New(service.Config{
		DefaultWorkspace: kn.root,
		Plugins:          rt,
		Edits:            engine,
		Metrics:          rec,
		Logger:           logger,
		Version:          version,
		EngineVersion:    "tree-sitter-python 0.25.0, parser sha256 " + wasm.ParserSHA256[:12],
		HealthPython:     healthPython(*k.python),
		StateDir:         *k.state,
		PreparedDir:      *k.prepared,
		Stubs:            stubs,
		IndexDelay:       *k.indexDelay,
		IdleRelease:      *k.idleRelease,
		Building:         building,
	})
	kn.closers = append(kn.closers, svc.Close)
	rec.GaugeFunc("pyws_workspaces_open", "Workspaces open now, their index and caches in memory.", func() float64 {
		open, _ := svc.Workspaces()
		return float64(open)
	})
	rec.CounterFunc("pyws_workspace_idle_releases_total", "Workspaces released after no request used them for --workspace-idle-release.", func() float64 {
		_, released := svc.Workspaces()
		return float64(released)
	})
	if err := svc.Preload(kn.root); err != nil {
		return nil, err
	}
	kn.svc, kn.metrics = svc, rec
	logger.Info("service started", "workspace", kn.root, "plugins", strings.Join(k.plugins, ","), "tools", strings.Join(rt.Tools(), ","))
	return kn, nil
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	kf := addKernelFlags(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address HOST:PORT")
	keysPath := fs.String("keys", "", "keys file (see 'pyws keys add')")
	devKey := fs.Bool("dev-key", false, "accept a development key (from PYWS_API_KEY, or generated and printed) with the enterprise tier")
	redisURL := fs.String("redis", "", "Redis URL (redis://[:pass@]host:6379/0) holding rate-limit counters shared by several pyws processes (default: counters in this process)")
	failOpen := fs.Bool("ratelimit-fail-open", false, "when the Redis rate-limit store fails, allow requests (logged) instead of refusing them with SERVER_UNAVAILABLE")
	maxBody := fs.Int("max-body", api.DefaultBodyLimit, "largest request body in bytes for any key (each tier's own cap is usually lower)")
	headerTimeout := fs.Duration("header-timeout", api.DefaultHeaderTimeout, "time allowed to receive a request line and headers")
	bodyTimeout := fs.Duration("body-timeout", api.DefaultBodyTimeout, "time allowed to receive a request body once its headers are in")
	requestTimeout := fs.Duration("request-timeout", api.DefaultRequestTimeout, "deadline of every request from its arrival")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger, err := kf.logger()
	if err != nil {
		return err
	}
	if *kf.workspace == "" {
		return errors.New("serve: --workspace DIR is required")
	}
	root, err := filepath.Abs(*kf.workspace)
	if err != nil {
		return err
	}
	if *keysPath == "" && !*devKey {
		return errors.New("serve: give --keys FILE (create keys with 'pyws keys add') or --dev-key")
	}
	keys, err := tenants.Open(*keysPath)
	if err != nil {
		return err
	}
	if *devKey {
		key := os.Getenv("PYWS_API_KEY")
		if key == "" {
			if key, err = tenants.NewKey(); err != nil {
				return err
			}
		}
		keys.AddInMemory(key, tenants.Key{ID: "dev", Tenant: "dev", Tier: tiers.Enterprise, Workspace: root, CreatedAt: time.Now()})
		fmt.Printf("development key (enterprise tier, workspace %s):\n%s\n", root, key)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var store ratelimit.Store // nil: counters in this process
	if *redisURL != "" {
		rs, err := ratelimit.NewRedisStore(*redisURL, 0)
		if err != nil {
			return fmt.Errorf("--redis: %w", err)
		}
		defer rs.Close()
		store = rs
	}
	// The server's resident memory is its live heap (the indexes) plus
	// the garbage the collector lets accumulate, up to the live heap
	// again at Go's default; a fresh --state also compiles the plugins
	// here, a burst of garbage. Collecting at a quarter of the live heap,
	// half while an index builds, lowers the peak (collector.go).
	var building func(bool)
	if collector := serverCollector(os.Getenv("GOGC")); collector != nil {
		building = collector.Building
	}
	kn, err := kf.start(ctx, logger, building)
	if err != nil {
		return err
	}
	defer kn.close()
	limiter := ratelimit.New(store, ratelimit.Options{FailOpen: *failOpen, OnDecision: kn.metrics.LimiterDecision, Logger: logger})
	app := api.New(api.Options{
		Service:        kn.svc,
		Keys:           keys,
		Limiter:        limiter,
		Logger:         logger,
		BodyLimit:      *maxBody,
		HeaderTimeout:  *headerTimeout,
		BodyTimeout:    *bodyTimeout,
		RequestTimeout: *requestTimeout,
		Metrics:        promhttp.HandlerFor(kn.metrics.Registry, promhttp.HandlerOpts{}),
		OpenAPI:        api.OpenAPIDocument(kn.svc.Table()),
	})
	ln, err := api.Listen(*addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- app.Listener(ln) }()
	logger.Info("serving", "addr", "http://"+*addr, "mcp", "http://"+*addr+api.MCPPath, "workspace", root)
	select {
	case err := <-errc:
		return err
	case err := <-kn.pluginFailure():
		app.ShutdownWithTimeout(shutdownGrace)
		return err
	case <-ctx.Done():
		logger.Info("shutting down")
		// Requests in flight get shutdownGrace to finish; a connection
		// still open then (a kept-alive one waiting for its client's next
		// request until its read deadline) is cut. That is the shutdown
		// the operator asked for, not a failure: the exit status stays 0.
		if err := app.ShutdownWithTimeout(shutdownGrace); err != nil {
			logger.Warn("shut down with connections still open; they were closed", "grace", shutdownGrace, "err", err)
		}
		return nil
	}
}

// logRecoveries reports what the edit journal's recovery did at start: a
// committed journal was rolled forward, an uncommitted one discarded (its
// edit never happened), a corrupt one set aside.
func logRecoveries(logger *slog.Logger, recovered []edits.Recovery) {
	for _, r := range recovered {
		switch {
		case r.Corrupt:
			logger.Error("kept a corrupt committed workspace edit journal aside; its files were left alone", "journal", r.Journal+".corrupt")
		case r.Committed:
			logger.Warn("completed an interrupted workspace edit", "journal", r.Journal,
				"rewritten", r.Rewritten, "alreadyCurrent", r.Current, "conflicts", r.Conflicts)
		default:
			logger.Warn("discarded an uncommitted workspace edit; no file was changed", "journal", r.Journal)
		}
	}
}

// shutdownGrace is how long requests in flight may run after a shutdown
// signal.
const shutdownGrace = 10 * time.Second

func defaultStateDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "pyws")
	}
	return filepath.Join(os.TempDir(), "pyws")
}

func defaultPluginDir() string { return besideBinary("plugins") }

// healthPython is --python as the prober runs it: the prober runs an
// interpreter in the temporary directory, so a name on PATH or a path
// relative to the server's directory is made absolute here ("" stays "";
// one that cannot be found is kept as given and never answers).
func healthPython(name string) string {
	if name == "" {
		return ""
	}
	if p, err := exec.LookPath(name); err == nil {
		name = p
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}
