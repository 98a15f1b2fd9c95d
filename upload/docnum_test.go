package upload_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/upload"
)

// TestDocNumbers fails when a number the docs state drifts from the
// code, as runtime/metrics tests its own docs.
func TestDocNumbers(t *testing.T) {
	testenv.DocNumbers(t, ".", []testenv.DocNumber{
		{Name: "DefaultCPUAlignment", Text: "alignment 0: %d bytes", Want: upload.DefaultCPUAlignment},
	})
}
