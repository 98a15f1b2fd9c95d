package voices_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

// A long track streams: a goroutine decodes it ahead into a fixed ring
// while it plays, here from raw PCM in memory (a file works the same:
// os.File is an io.ReaderAt). Close proves the reader is never touched
// again.
func ExampleEngine_NewStream() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev})
	if err != nil {
		panic(err)
	}
	defer eng.Close()

	track := bytes.NewReader(sine()) // one second of 44.1 kHz mono
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	src, err := voices.NewPCMSource(track, 0, track.Size(), f)
	if err != nil {
		panic(err)
	}
	music, err := eng.NewStream(voices.StreamDesc{Name: "theme", Source: src, Buffer: 250 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	fmt.Println("ring bytes:", music.Memory())
	h, err := eng.Play(music.Clip(), voices.PlayDesc{Protected: true})
	if err != nil {
		panic(err)
	}
	out := make([]byte, 256*8) // one block of the device's float32 stereo
	for eng.Playing(h) {
		time.Sleep(5 * time.Millisecond) // a block is 5.3 ms: about real time
		_, _ = dev.Render(out)
	}
	fmt.Println("underruns:", eng.Stats().StreamUnderruns)
	if err := music.Close(time.Second); err != nil {
		panic(err)
	}
	fmt.Println("closed: the track is ours again")
	// Output:
	// ring bytes: 22050
	// underruns: 0
	// closed: the track is ours again
}
