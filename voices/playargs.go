package voices

// playArgs are the fields of a Play that most Plays leave zero: its
// start time, offset and pitch. They ride in a table indexed by voice
// slot, not in the command, so that the queue's cell stays small: every
// Play writes a cell, and BenchmarkPlay showed Play's cost following the
// cell's size. A Play that sets any of them (usesExt) writes its slot's
// entry before it publishes the command, with cmdFlagArgs; the mixer
// reads it after popping the command. The slot is the Play's alone from
// acquire until the mixer starts or refuses the voice, and the queue's
// publish and pop order the write before the read.
type playArgs struct {
	at     int64   // PlayDesc.At: the engine clock frame to start at; 0 or past: the next block
	offset int64   // PlayDesc.Offset: the source frame to start from
	pitch  float32 // PlayDesc.Pitch; 0 plays unpitched
}

// setArgs records d's rare fields for the Play reserving slot and
// returns the flag that tells the mixer to read them.
func (e *Engine) setArgs(slot uint32, d *PlayDesc) uint8 {
	e.mix.x.args[slot] = playArgs{at: d.At, offset: int64(d.Offset), pitch: d.Pitch}
	if d.Pitch != 0 {
		e.mix.pitchable[slot].Store(true)
	}
	return cmdFlagArgs
}

// argsOf returns the rare fields of Play command c: its slot's entry, or
// zero when the Play set none of them.
func (x *mixExt) argsOf(c *command) playArgs {
	if c.flags&cmdFlagArgs == 0 {
		return playArgs{}
	}
	return x.args[c.slot]
}
