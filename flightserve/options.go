package flightserve

import "github.com/fstensor/fstensor/internal/errs"

type base = errs.Base

// Error is the error of an invalid option or Config value, returned by
// Dial and New before they connect or open anything: it matches
// fstensor.ErrOption and arrow.ErrInvalid under errors.Is, and its
// message starts with "flightserve: " and names the option and the value.
type Error struct{ base }

// optionError returns the *Error of option name and value.
func optionError(name string, value any, why string) error {
	return &Error{errs.Option("flightserve", name, value, why)}
}

// minMaxMessageBytes is the smallest message bound a client or server
// takes: a batch of one row must fit.
const minMaxMessageBytes = 1 << 20
