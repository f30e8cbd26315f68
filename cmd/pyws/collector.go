package main

import (
	"runtime/debug"
	"sync"
)

// The server collects at a quarter of its live heap while it serves and
// at half of it while an index builds. Most of what is live is the
// indexes, and a query allocates little (about 130 KB a get_references
// on Django), so between builds the smaller headroom costs few extra
// collections and lowers the peak a burst of queries reaches; a build
// allocates hundreds of MB of transient summaries and link state, and
// there every extra collection marks the growing index again and slows
// the start (see RATIONALE.md, "Where does the memory go?").
const (
	servingGCPercent  = 25
	buildingGCPercent = 50
)

// collectorPolicy sets the collector's percent from how many index
// builds are under way (service.Config.Building).
type collectorPolicy struct {
	mu       sync.Mutex
	builds   int
	setPct   func(int) int // debug.SetGCPercent
	building bool          // the percent last set is buildingGCPercent
}

func newCollectorPolicy(setPct func(int) int) *collectorPolicy {
	p := &collectorPolicy{setPct: setPct}
	p.setPct(servingGCPercent)
	return p
}

// serverCollector is the policy `pyws serve` runs under, nil when GOGC
// is set (the operator's choice stands).
func serverCollector(gogc string) *collectorPolicy {
	if gogc != "" {
		return nil
	}
	return newCollectorPolicy(debug.SetGCPercent)
}

// Building is service.Config.Building: a build started (true) or ended.
func (p *collectorPolicy) Building(started bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if started {
		p.builds++
	} else {
		p.builds--
	}
	if want := p.builds > 0; want != p.building {
		p.building = want
		if want {
			p.setPct(buildingGCPercent)
		} else {
			p.setPct(servingGCPercent)
		}
	}
}
