// Package metrics counts what the service does, once, for two readers: the
// Prometheus registry served at /metrics, and the sliding window behind
// health_check's metrics block (requests per minute, average response time,
// error rate). Both read the same Observe calls, so they never disagree.
package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// WindowLength is the span health_check averages over.
const WindowLength = 5 * time.Minute

// Recorder is safe for concurrent use.
type Recorder struct {
	Registry *prometheus.Registry

	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	limiter  *prometheus.CounterVec
	plugins  *prometheus.HistogramVec
	authFail *prometheus.CounterVec
	gone     prometheus.Counter

	mu      sync.Mutex
	start   time.Time
	buckets [int(WindowLength / time.Second)]bucket
	now     func() time.Time
}

type bucket struct {
	second   int64 // unix second this bucket holds; stale buckets are ignored
	requests int64
	errors   int64
	totalDur time.Duration
}

// New returns a recorder with its own registry (Go and process collectors
// included).
func New() *Recorder {
	r := &Recorder{Registry: prometheus.NewRegistry(), start: time.Now(), now: time.Now}
	r.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pyws_requests_total",
		Help: "Requests by operation and outcome (error code, or ok).",
	}, []string{"operation", "code"})
	r.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "pyws_request_duration_seconds",
		Help:    "Request latency by operation.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .2, .5, 1, 2.5, 5, 10, 30},
	}, []string{"operation"})
	r.limiter = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pyws_ratelimit_decisions_total",
		Help: "Rate limiter decisions by operation family and decision (allowed, refused, error).",
	}, []string{"family", "decision"})
	r.plugins = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "pyws_plugin_call_duration_seconds",
		Help:    "Plugin calls by tool and outcome (error code, or ok), from dispatch to answer: queueing for a worker, parsing and the guest's work.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .2, .5, 1, 2.5, 5, 10, 30},
	}, []string{"tool", "outcome"})
	r.authFail = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pyws_auth_failures_total",
		Help: "Requests refused with AUTHENTICATION_FAILED, by reason (missing, malformed, unknown_key).",
	}, []string{"reason"})
	r.gone = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "pyws_client_disconnects_total",
		Help: "Requests whose client closed the connection while they ran (their work was canceled).",
	})
	r.Registry.MustRegister(r.requests, r.latency, r.limiter, r.plugins, r.authFail, r.gone,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return r
}

// Observe records one finished request. code is "" on success.
func (r *Recorder) Observe(operation, code string, d time.Duration) {
	label := code
	if label == "" {
		label = "ok"
	}
	r.requests.WithLabelValues(operation, label).Inc()
	r.latency.WithLabelValues(operation).Observe(d.Seconds())

	sec := r.now().Unix()
	r.mu.Lock()
	b := &r.buckets[sec%int64(len(r.buckets))]
	if b.second != sec {
		*b = bucket{second: sec}
	}
	b.requests++
	b.totalDur += d
	if code != "" {
		b.errors++
	}
	r.mu.Unlock()
}

// PluginCall records one plugin call; code is "" on success.
func (r *Recorder) PluginCall(tool, code string, d time.Duration) {
	if code == "" {
		code = "ok"
	}
	r.plugins.WithLabelValues(tool, code).Observe(d.Seconds())
}

// LimiterDecision records a rate-limit outcome.
func (r *Recorder) LimiterDecision(family, decision string) {
	r.limiter.WithLabelValues(family, decision).Inc()
}

// AuthFailure records a request refused for its credentials.
func (r *Recorder) AuthFailure(reason string) { r.authFail.WithLabelValues(reason).Inc() }

// ClientDisconnect records a request abandoned by its client mid-way.
func (r *Recorder) ClientDisconnect() { r.gone.Inc() }

// Summary is health_check's metrics block.
type Summary struct {
	RequestsPerMinute float64 `json:"requestsPerMinute"`
	AvgResponseTime   float64 `json:"avgResponseTime"` // milliseconds
	ErrorRate         float64 `json:"errorRate"`       // percent
}

// Summarize averages the last WindowLength (or the uptime, when shorter).
func (r *Recorder) Summarize() Summary {
	now := r.now()
	sec := now.Unix()
	oldest := sec - int64(len(r.buckets)) + 1
	var reqs, errs int64
	var total time.Duration
	r.mu.Lock()
	for _, b := range r.buckets {
		if b.second >= oldest && b.second <= sec {
			reqs += b.requests
			errs += b.errors
			total += b.totalDur
		}
	}
	r.mu.Unlock()
	span := now.Sub(r.start)
	if span > WindowLength {
		span = WindowLength
	}
	if span < time.Second {
		span = time.Second
	}
	var s Summary
	s.RequestsPerMinute = round2(float64(reqs) / span.Minutes())
	if reqs > 0 {
		s.AvgResponseTime = round2(float64(total) / float64(reqs) / float64(time.Millisecond))
		s.ErrorRate = round2(100 * float64(errs) / float64(reqs))
	}
	return s
}

func round2(f float64) float64 {
	return float64(int64(f*100+0.5)) / 100
}

// GaugeFunc registers a gauge read from f at scrape time.
func (r *Recorder) GaugeFunc(name, help string, f func() float64) {
	r.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

// CounterFunc registers a counter read from f at scrape time.
func (r *Recorder) CounterFunc(name, help string, f func() float64) {
	r.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
}
