package voices

import (
	"os"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestStreamDocNumbers keeps the streaming docs' sizes in step with the
// code: the package doc's ring size per second, and the README's and
// docs/streaming.md's ring for the default buffer.
func TestStreamDocNumbers(t *testing.T) {
	f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
	testenv.DocNumbers(t, ".", []testenv.DocNumber{
		{Name: "", Text: "(%d bytes a second of 44.1 kHz 16-bit stereo)", Want: int64(f.Rate * f.FrameBytes())},
	})
	e, _ := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, &genPCM{f: f, frames: 1 << 20}, f, 1<<20, StreamDesc{})
	defer s.Close(0)
	for _, doc := range []string{"../README.md", "../docs/streaming.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		if want := "88,200"; !strings.Contains(text, want) || s.Memory() != 88200 {
			t.Errorf("%s states a %s-byte ring for the default 500 ms of 44.1 kHz stereo; Memory is %d", doc, want, s.Memory())
		}
	}
	if DefaultStreamBuffer.Milliseconds() != 500 {
		t.Errorf("DefaultStreamBuffer is %v; the docs say 500 ms", DefaultStreamBuffer)
	}
}
