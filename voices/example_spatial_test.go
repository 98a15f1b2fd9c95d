package voices_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/steadyframe/steadyframe/voices"
)

// peaks returns the left and right peaks of float32 stereo frames.
func peaks(b []byte) (l, r float64) {
	for i := 0; i+8 <= len(b); i += 8 {
		l = max(l, math.Abs(float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))))
		r = max(r, math.Abs(float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i+4:])))))
	}
	return l, r
}

// A positioned voice fades with distance and pans by direction around
// the listener, which any goroutine may move.
func ExampleEngine_SetPosition() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev,
		DistanceModel: voices.DistanceInverseClamped, RefDistance: 2, DopplerFactor: 1})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	bank, _ := eng.NewBank("world", sine())
	torch, _ := bank.Clip(voices.ClipDesc{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}})

	// The listener faces -z with +y up (OpenAL's axes).
	_ = eng.SetListener(voices.Listener{Forward: voices.Vec3{Z: -1}, Up: voices.Vec3{Y: 1}})
	h, err := eng.Play(torch, voices.PlayDesc{Loop: true,
		Spatial: &voices.Spatial{Position: voices.Vec3{X: 8, Z: -1}}})
	if err != nil {
		panic(err)
	}
	out := make([]byte, 4800*8)
	_, _ = dev.Render(out)
	l, r := peaks(out)
	fmt.Println("on the right:", r > 4*l)

	_ = eng.SetPosition(h, voices.Vec3{X: -8, Z: -1}, voices.Vec3{}) // each frame, from the game loop
	_, _ = dev.Render(out)
	l, r = peaks(out[2400*8:]) // past the block that ramps across
	fmt.Println("on the left:", l > 4*r)
	// Output:
	// on the right: true
	// on the left: true
}
