package teardown

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the stage names involved.
var (
	// ErrDuplicate is returned by Plan.Add for a stage name already
	// registered; the first stage is kept.
	ErrDuplicate = errors.New("teardown: stage registered twice")
	// ErrUnknown is returned when a stage follows, or a Uses names, a
	// stage that was never added.
	ErrUnknown = errors.New("teardown: unknown stage")
	// ErrCycle is returned when stages follow each other in a cycle; the
	// wrapping message names the cycle.
	ErrCycle = errors.New("teardown: dependency cycle")
	// ErrOrder is returned when a stage releases a resource that another
	// stage still uses and is not ordered after it; the wrapping message
	// names both.
	ErrOrder = errors.New("teardown: releases a resource still in use")
	// ErrSkipped reports a stage that was not run because a prerequisite
	// failed; the wrapping message names the prerequisite.
	ErrSkipped = errors.New("teardown: stage skipped")
	// ErrTwice is returned by a Plan's Run, Add or Uses once its stages
	// have run.
	ErrTwice = errors.New("teardown: run twice")
)

// ErrInvalidConfig is returned by Add and Uses given an empty name, a nil
// function or a stage that uses itself.
var ErrInvalidConfig = errors.New("teardown: invalid configuration")
