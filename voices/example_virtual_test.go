package voices_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/voices"
)

// A world with more emitters than voices: 200 looping torches on 32
// voices. The 32 loudest are mixed; the others keep time unmixed and
// swap in, at their position, when they grow louder.
func ExampleEngineDesc_virtual() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev, MaxVoices: 32, Virtual: 1024})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	bank, _ := eng.NewBank("world", sine())
	torch, _ := bank.Clip(voices.ClipDesc{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}})

	var torches []voices.Handle
	for i := range 200 {
		h, err := eng.Play(torch, voices.PlayDesc{Loop: true, Volume: 0.01 + float32(i)/1000}) // past 32: virtual, not refused
		if err != nil {
			panic(err)
		}
		torches = append(torches, h)
	}
	out := make([]byte, 1024*8)
	_, _ = dev.Render(out)
	s := eng.Stats()
	fmt.Println("real:", s.Real, "virtual:", s.Virtual)

	_ = eng.SetVolume(torches[0], 1) // the player walks up to the quietest torch
	_, _ = dev.Render(out)
	s = eng.Stats()
	fmt.Println("real:", s.Real, "virtual:", s.Virtual, "swaps:", s.Swaps)
	// Output:
	// real: 32 virtual: 168
	// real: 32 virtual: 168 swaps: 2
}
