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
}

const (
	cmdFlagLoop      = 1 << 0
	cmdFlagProtected = 1 << 1
	cmdFlagSteal     = 1 << 2 // reserved past the caps: the mixer must steal or refuse
)
