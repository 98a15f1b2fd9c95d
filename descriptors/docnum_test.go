package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestDocNumbers fails when a number the docs state drifts from the
// code, as runtime/metrics tests its own docs.
func TestDocNumbers(t *testing.T) {
	testenv.DocNumbers(t, ".", []testenv.DocNumber{
		{Name: "", Text: "(%d by default)", Want: descriptors.DefaultCapacity},
		{Name: "DefaultCapacity", Text: "%d slots, a start", Want: descriptors.DefaultCapacity},
		{Name: "MaxCapacity", Text: "and Grow: %d slots", Want: descriptors.MaxCapacity},
		{Name: "", Text: "crosses %d%", Want: descriptors.WarnLevel1},
		{Name: "", Text: "% and %d%", Want: descriptors.WarnLevel2},
		{Name: "", Text: "after 2^31-%d uses", Want: 1},
	})
}
