package voices

import "time"

// pendingSlots is how many times its cap a format's slots grow by when
// EngineDesc.StartLatency is set: voices waiting for their start hold a
// slot each but no place under the caps, and at 200 Plays a second with
// half a second of latency, a hundred may wait at once.
const pendingSlots = 4

// playLater is Play for an engine with a StartLatency: it takes a slot
// without a place under the caps (the mixer counts the voice when it
// starts) and stamps the command with the time of the call, which the
// mixer turns into the voice's start frame.
func (e *Engine) playLater(c *clipState, d *PlayDesc, vol float32, fadeIn int32, ext uint8, args bool) (Handle, error) {
	slot, gen, flags, why := e.slots.acquire(c.pool, true, d.Bus)
	if why != reasonNone {
		return 0, e.refusePlay(c, why, ext, d.Bus)
	}
	if flags&cmdFlagSteal == 0 {
		e.slots.uncount(c.pool)
	}
	flags |= ext | cmdFlagSteal | cmdFlagLater
	if args {
		flags |= e.setArgs(slot, d)
	}
	if d.Loop {
		flags |= cmdFlagLoop
	}
	if d.Protected {
		flags |= cmdFlagProtected
	}
	cmd, pos, ok := e.q.Reserve()
	if !ok {
		e.slots.giveBack(c.pool, slot, false)
		e.giveBack(c, flags, d.Bus)
		return 0, e.refuse(callPlay, reasonQueueFull, c.pool.fi)
	}
	cmd.kind, cmd.flags, cmd.priority, cmd.slot, cmd.gen = cmdPlay, flags, d.Priority, slot, gen
	cmd.value, cmd.pan, cmd.clip, cmd.enqueueNs = vol, d.Pan, c, e.now()
	cmd.fade, cmd.bus = fadeIn, uint8(d.Bus)
	if d.Spatial != nil {
		e.play3D(slot, d.Spatial)
	}
	e.q.Publish(pos)
	return makeHandle(slot, gen), nil
}

// uncount gives back the places under the caps that acquire counted.
func (t *slotTable) uncount(p *formatPool) {
	t.dropTotal()
	p.addCount(-1)
}

// placeLater sets the start frame of a voice placed by its issue time:
// the frame this block starts at, moved by the time from this block's
// start back to the call, plus the latency. One that would start in the
// past starts now.
func (m *mixer) placeLater(v *voice, e *voiceExt, c *command) {
	v.counted = false
	e.later = true
	rate := int64(m.dev.Rate)
	at := m.x.frame + m.x.latency + (c.enqueueNs-m.nowNs)*rate/int64(time.Second)
	e.at = max(at, m.x.frame)
}

// startLater counts a voice placed by its issue time against the caps
// as it starts, stealing under PolicySteal, or refuses it.
func (m *mixer) startLater(v *voice, e *voiceExt) bool {
	e.later = false
	var ok bool
	if m.x.policy == PolicySteal {
		ok = m.take(v.pool, v.priority)
	} else {
		ok = m.slots.reserve(v.pool)
	}
	if !ok {
		v.ended = true
		e.why = EventRefused
		m.refusals.Add(1)
		return false
	}
	v.counted = true
	return true
}
