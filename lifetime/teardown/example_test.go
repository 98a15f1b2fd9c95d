package teardown_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/steadyframe/steadyframe/lifetime/teardown"
)

// Shutdown order is declared, not implied by construction order: sound
// memory follows the voices that read it, GL buffers follow the drain.
func ExamplePlan() {
	// Drop times and durations so the example's output is stable.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	td := teardown.New(logger)
	step := func(what string) func() error {
		return func() error { fmt.Println(what); return nil }
	}
	for _, err := range []error{
		td.Add("sound-memory", step("free sound banks"), "voices-stopall"),
		td.Add("voices-stopall", step("stop every voice")),
		td.Add("frames-drain", step("drain frames in flight")),
		td.Add("gl-buffers", step("unmap and delete buffers"), "frames-drain"),
		td.Uses("voices-stopall", "sound-memory"),
	} {
		if err != nil {
			panic(err)
		}
	}
	fmt.Println(td.Run())
	// Output:
	// stop every voice
	// level=INFO msg="teardown: stage" stage=voices-stopall
	// free sound banks
	// level=INFO msg="teardown: stage" stage=sound-memory
	// drain frames in flight
	// level=INFO msg="teardown: stage" stage=frames-drain
	// unmap and delete buffers
	// level=INFO msg="teardown: stage" stage=gl-buffers
	// level=INFO msg="teardown: done" stages=4 failed=0
	// <nil>
}
