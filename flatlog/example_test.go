package flatlog_test

import (
	"log/slog"
	"os"

	"github.com/steadyframe/steadyframe/flatlog"
)

// A logger for records written inside allocation-guarded frames. The
// time is dropped here only so the example's output is stable.
func Example() {
	opts := &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}
	logger := slog.New(flatlog.New(os.Stdout, flatlog.FormatText, opts)).With("heap", "textures")
	logger.Info("descriptor occupancy", "live", 239, "pct", 23.3)
	j := flatlog.New(os.Stdout, flatlog.FormatJSON, opts)
	slog.New(j).WithGroup("heap").Warn("90% full", "live", 922)
	// Output:
	// level=INFO msg="descriptor occupancy" heap=textures live=239 pct=23.3
	// {"level":"WARN","msg":"90% full","heap":{"live":922}}
}
