package voices

import (
	"fmt"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// EventKind says what happened to a voice: a plain value.
type EventKind uint8

const (
	// EventNone is the zero EventKind: no event.
	EventNone EventKind = iota
	// EventEnded: a one-shot voice played to its end.
	EventEnded
	// EventStopped: Stop, StopBus, StopAll, Close or a fade with
	// AfterStop ended the voice.
	EventStopped
	// EventStolen: PolicySteal ended the voice to make room for another.
	EventStolen
	// EventRefused: a Play was refused, by a cap (Handle is then zero:
	// Play returned the refusal) or by the mixer (a steal with no victim,
	// a bank being released, a StopAll).
	EventRefused
)

// String returns the kind's name.
func (k EventKind) String() string {
	switch k {
	case EventNone:
		return "none"
	case EventEnded:
		return "ended"
	case EventStopped:
		return "stopped"
	case EventStolen:
		return "stolen"
	case EventRefused:
		return "refused"
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Event reports the end of a voice, or a refused Play: one per voice,
// exactly once. A plain value.
type Event struct {
	Kind   EventKind
	Handle Handle // the voice; zero for a Play refused before it had one
	Clip   Clip
}

// PollEvent returns the oldest event not yet read, or false when there
// is none. Events are queued only when EngineDesc.Events is set; the
// queue is a bounded syncs.Queue that the mixer never waits on, so an
// event that finds it full is dropped and counted (Stats.EventsDropped).
// PollEvent belongs to one goroutine at a time (the queue has one
// consumer); it never blocks and allocates nothing.
func (e *Engine) PollEvent() (Event, bool) {
	if e.events == nil {
		return Event{}, false
	}
	return e.events.Pop()
}

// newEvents returns the event queue for EngineDesc.Events, or nil.
func newEvents(n int) (*syncs.Queue[Event], error) {
	if n == 0 {
		return nil, nil
	}
	q, err := syncs.NewQueue[Event](n)
	if err != nil {
		return nil, fmt.Errorf("%w: Events: %w", ErrInvalid, err)
	}
	return q, nil
}

// pushEvent queues an event if events are on; a full queue counts it
// dropped (syncs.Queue.Full).
func pushEvent(q *syncs.Queue[Event], k EventKind, h Handle, c *clipState) {
	if q != nil {
		q.Push(Event{Kind: k, Handle: h, Clip: Clip{c: c}})
	}
}
