package main

import (
	"reflect"
	"testing"
)

// TestCollectorPolicy: the percent is the serving one until a build
// starts, the building one while any build runs (overlapping builds of
// two workspaces included), and the serving one once the last ends.
func TestCollectorPolicy(t *testing.T) {
	var set []int
	p := newCollectorPolicy(func(pct int) int { set = append(set, pct); return 0 })
	for _, started := range []bool{true, true, false, false, true, false} {
		p.Building(started)
	}
	want := []int{servingGCPercent, buildingGCPercent, servingGCPercent, buildingGCPercent, servingGCPercent}
	if !reflect.DeepEqual(set, want) {
		t.Fatalf("percents set %v, want %v", set, want)
	}
	if serverCollector("100") != nil {
		t.Fatal("a policy although GOGC is set")
	}
}
