// Package plugins is the kernel's plugin runtime: it loads analyzer plugins
// (wasm modules speaking plugin ABI v1, docs/plugin-abi.md) and runs their
// tool calls with a hard deadline.
//
// Contract:
//
//   - Start reads every manifest, checks each module's SHA-256 and that it
//     imports nothing outside pyws_v1 and the allowed WASI calls, and
//     compiles it into the on-disk compilation cache, all before any guest
//     code runs. Directories are searched in order; a later directory
//     overrides earlier ones tool by tool; two plugins of one directory
//     claiming a tool is an error.
//   - Guests run in worker processes (this binary re-executed with the
//     hidden subcommand WorkerCommand; cmd/pyws must call WorkerMain for
//     it, tests call RunWorkerIfRequested from TestMain). Each worker runs
//     one call at a time; the pool holds Config.Workers of them and queues
//     callers per tenant (WithTenant), serving tenants in turn; one
//     plugin's calls hold at most Config.MaxWorkersPerPlugin workers.
//   - A call that outlives its deadline (ctx's or the manifest's timeoutMs,
//     whichever is first, counted from its arrival) or whose ctx is
//     canceled is stopped where it is: taken out of the queue, or by
//     killing its worker (SIGKILL); it fails with TIMEOUT, and a
//     replacement worker starts in the background. wazero's
//     compiled code cannot be interrupted in-process without
//     WithCloseOnContextDone, which costs about 12x on CPU-bound guest
//     code, and a guest spinning in-process would also stall the host's GC;
//     see RATIONALE.md.
//   - Guests get no filesystem, environment, arguments or network, a fake
//     clock, and a memory cap. An instance is discarded after a trap, exit
//     or out-of-memory (the worker survives and reports
//     SERVER_UNAVAILABLE), and recycled once its memory passes half its cap.
//     A whole worker is replaced when its resident memory passes
//     Config.WorkerRSSLimitMiB after a call, or has grown by
//     Config.IdleGrowthMiB and stayed idle for Config.IdleRecycleAfter.
//   - Every error from Call is a *fault.Error: the tool's own error when its
//     code is in the spec's catalogue, TIMEOUT, or SERVER_UNAVAILABLE with
//     details {plugin, reason}.
//
// Runtime is safe for concurrent use.
package plugins
