package otodev

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// words joins text's words with single spaces, dropping the comment
// markers of Go source, so a phrase matches across line breaks.
func words(text string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(text, "//", " ")), " ")
}

func msText(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// TestLatencyDocsMatchCode: the latency the package doc and the README
// state is the one MaxLatency computes from the defaults, with the same
// buffer and block sizes; and a real oto device's reported latency (the
// ALSA buffer plus the player's queue at each read) lies within the two
// buffers of that account.
func TestLatencyDocsMatchCode(t *testing.T) {
	f := voices.DefaultDeviceFormat
	max := MaxLatency(f, DefaultBufferFrames, voices.DefaultBlockFrames)
	buf := f.Duration(DefaultBufferFrames)
	if New(Desc{}).desc.BufferFrames != DefaultBufferFrames {
		t.Fatalf("a zero Desc does not get DefaultBufferFrames")
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"doc.go", words(string(doc)), []string{
			fmt.Sprintf("3 × %d + %d frames, %s at %d kHz by default (MaxLatency)", DefaultBufferFrames, voices.DefaultBlockFrames, msText(max), f.Rate/1000),
			fmt.Sprintf("a player buffer (%s) at a time", msText(buf)),
		}},
		{"README.md", words(string(readme)), []string{
			fmt.Sprintf("latency through oto: at most %s at %d kHz (`otodev.MaxLatency`)", msText(max), f.Rate/1000),
			fmt.Sprintf("one %d-frame player buffer (%s) at a time", DefaultBufferFrames, msText(buf)),
			fmt.Sprintf("a %d-frame mixer block adds at most one more", voices.DefaultBlockFrames),
		}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s does not say %q", c.name, w)
			}
		}
	}

	dir := t.TempDir()
	raw := filepath.Join(dir, "out.raw")
	res := child(t, "tone", append(alsaToFile(t, dir, raw), envRaw+"="+raw))
	os.Remove(raw)
	if res.DeviceErr != "" || res.DeviceName != "oto" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	if res.DevLatency < buf || res.DevLatency >= 2*buf {
		t.Errorf("the device reports %v buffered, want the ALSA buffer (%v) plus less than one player buffer", res.DevLatency, buf)
	}
}
