package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	libredis "github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	redisstore "github.com/ulule/limiter/v3/drivers/store/redis"
)

// RedisStore is a Store in Redis, shared by every pyws process pointed at
// the same server, so a key has one budget however many processes serve it.
type RedisStore struct {
	Store
	client *libredis.Client
}

// NewRedisStore connects to url (redis://[user:pass@]host:port/db or
// rediss:// for TLS; see go-redis ParseURL). timeout bounds dialing, each
// read and write, and pool waits (0 means DefaultTimeout); timeouts given
// in the URL's query (dial_timeout, read_timeout, ...) win. It fails when
// the server cannot be reached now (it loads two Lua scripts), so a wrong
// URL is reported at start; a later outage is handled per request.
func NewRedisStore(url string, timeout time.Duration) (*RedisStore, error) {
	o, err := libredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %w", err)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	// go-redis's defaults (5 s dials, 3 retries with backoff, 5 dial
	// attempts) would hold a request for seconds when Redis is gone.
	if o.DialTimeout == 0 {
		o.DialTimeout = timeout
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = timeout
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = timeout
	}
	if o.PoolTimeout == 0 {
		o.PoolTimeout = timeout
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 1 // one retry, for a pooled connection Redis closed
	}
	o.DialerRetries = 1
	o.ContextTimeoutEnabled = true // honour Charge's deadline
	quietRedisLogs.Do(func() { libredis.SetLogger(&throttledLogger{}) })
	client := libredis.NewClient(o)

	ctx, cancel := context.WithTimeout(context.Background(), 4*timeout)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("redis %s: %w", o.Addr, err)
	}
	s, err := redisstore.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: KeyPrefix})
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("redis %s: %w", o.Addr, err)
	}
	return &RedisStore{Store: s, client: client}, nil
}

// Close closes the connections.
func (r *RedisStore) Close() error { return r.client.Close() }

// quietRedisLogs replaces go-redis's logger, which is process-wide and
// would otherwise print a line per failed dial, so one per request while
// Redis is down. pyws uses go-redis for nothing else.
var quietRedisLogs sync.Once

// throttledLogger sends go-redis's messages to slog.Default, at most one
// per logEvery.
type throttledLogger struct{ last atomic.Int64 }

func (t *throttledLogger) Printf(ctx context.Context, format string, v ...any) {
	now := time.Now().UnixNano()
	last := t.last.Load()
	if now-last < int64(logEvery) || !t.last.CompareAndSwap(last, now) {
		return
	}
	slog.Default().Warn(fmt.Sprintf(format, v...), "component", "ratelimit/redis")
}
