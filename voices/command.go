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
	cmdListener
	cmdPosition
	cmdDirection
)

// command is one fixed-size request from a game goroutine to the mixer,
// carried by the engine's syncs.Queue. It holds everything the mixer
// needs, so nothing is allocated per request: a Play carries the clip
// pointer, the voice slot the producer reserved, and the voice's
// settings.
type command struct {
	kind      cmdKind
	flags     uint8 // cmdFlag*
	priority  int16
	slot      uint32 // voice slot (cmdPlay..cmdPan) or format index (cmdFormatGain)
	gen       uint32 // the handle's generation, so a late command for an ended voice is ignored
	value     float32
	pan       float32
	clip      *clipState
	enqueueNs int64 // the mixer's latest block start at Play, for the Play-to-mix latency
	// Issue 18's fields (bus.go, control.go, clock.go).
	at     int64   // Play: the engine clock frame to start at; 0 or past: the next block
	offset int64   // Play: the source frame to start from
	fade   int32   // frames of a fade (Play's fade-in, FadeBus, StopBus, Fade)
	bus    uint8   // Play: the voice's bus; bus commands: the bus
	op     uint8   // the command's variant: an After, or on/off
	pitch  float32 // Play: PlayDesc.Pitch; 0 plays unpitched
	// 3D sound (spatial.go): SetListener's position, forward, up and
	// velocity, or SetPosition's position and velocity.
	v3 [12]float32
}

const (
	cmdFlagLoop      = 1 << 0
	cmdFlagProtected = 1 << 1
	cmdFlagSteal     = 1 << 2 // reserved past the caps: the mixer must steal or refuse
	cmdFlagBusCount  = 1 << 3 // counted against its bus's MaxVoices
	cmdFlagClipCount = 1 << 4 // counted against its clip's MaxInstances
	cmdFlagLater     = 1 << 5 // placed by its issue time; counted against the caps when it starts
	cmdFlag3D        = 1 << 6 // played with a Spatial (spatial.go)
)
