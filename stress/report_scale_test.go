package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// TestScaleDocMatchesCode keeps docs/stress.md's emitter section in step
// with the numbers the scene and the stress tool run on.
func TestScaleDocMatchesCode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "stress.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		fmt.Sprintf("`-emitters` (%d in the stress tool", defaultConfig().Emitters),
		fmt.Sprintf("0 to %d) looping positioned sounds", scene.MaxEmitters),
		fmt.Sprintf("an %d × %d world", 2*scene.WorldHalf, 2*scene.WorldHalf),
		fmt.Sprintf("The engine holds %d logical sounds", scene.Virtual),
		fmt.Sprintf("filled the %d-command queue", scene.QueueSize),
		fmt.Sprintf("from a %d s WAV file", int(scene.MusicLength.Seconds())),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/stress.md does not say %q", want)
		}
	}
}
