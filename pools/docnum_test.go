package pools

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestDocNumbers fails when a number the docs state drifts from the
// code, as runtime/metrics tests its own docs.
func TestDocNumbers(t *testing.T) {
	testenv.DocNumbers(t, ".", []testenv.DocNumber{
		{Name: "MaxCapacity", Text: "any container accepts: %d.", Want: MaxCapacity},
		{Name: "Handle", Text: "The tag (%d bits above", Want: 32 - indexBits},
		{Name: "Handle", Text: "above the %d-bit index", Want: indexBits},
		{Name: "Handle", Text: "the tags 0 to %d in turn", Want: tags - 1},
		{Name: "Handle", Text: "only if %d others", Want: tags - 1},
		{Name: "genRetired", Text: "lives 2^31-%d times", Want: 1<<31 - int64(genRetired/2)},
	})
}
