package voices

// cmdKind says what a command asks the mixer to do.
type cmdKind uint8

const (
	cmdNone cmdKind = iota
	cmdPlay
	cmdStop
	cmdVolume
	cmdPan
	cmdMaster
	cmdFormatGain
	// Issue 18's commands: bus.go, control.go.
	cmdBusFade
	cmdBusMute
	cmdBusPause
	cmdBusStop
	cmdFade
	cmdPause
	cmdPitch // pitch.go
	// 3D sound: spatial.go.
	cmdDirection // SetListener and SetPosition do not queue: spatial_pos.go
)

// command is one fixed-size request from a game goroutine to the mixer,
// carried by the engine's syncs.Queue. It holds everything the mixer
// needs, so nothing is allocated per request: a Play carries the clip
// pointer, the voice slot the producer reserved, and the voice's
// settings.
type command struct {
	kind     cmdKind
	flags    uint8 // cmdFlag*
	priority int16
	slot     uint32 // voice slot (cmdPlay..cmdPan) or format index (cmdFormatGain)
	gen      uint32 // the handle's generation, so a late command for an ended voice is ignored
	value    float32
	pan      float32
	// Issue 18's fields (bus.go, control.go, clock.go). A Play's start
	// time, offset and pitch are in its slot's playArgs (playargs.go).
	fade      int32 // frames of a fade (Play's fade-in, FadeBus, StopBus, Fade)
	clip      *clipState
	enqueueNs int64 // the mixer's latest block start at Play, for the Play-to-mix latency
	bus       uint8 // Play: the voice's bus; bus commands: the bus
	op        uint8 // the command's variant: an After, or on/off
	// 3D sound (spatial.go): SetDirection's direction.
	v3 [3]float32
}

const (
	cmdFlagLoop      = 1 << 0
	cmdFlagProtected = 1 << 1
	cmdFlagSteal     = 1 << 2 // reserved past the caps: the mixer must steal or refuse
	cmdFlagBusCount  = 1 << 3 // counted against its bus's MaxVoices
	cmdFlagClipCount = 1 << 4 // counted against its clip's MaxInstances
	cmdFlagLater     = 1 << 5 // placed by its issue time; counted against the caps when it starts
	cmdFlag3D        = 1 << 6 // played with a Spatial (spatial.go)
	cmdFlagArgs      = 1 << 7 // its slot's playArgs hold its start time, offset and pitch
)
