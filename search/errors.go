package search

import "github.com/fstensor/fstensor/internal/errs"

type base = errs.Base

// Error is the error type of an invalid option value: it matches
// fstensor.ErrOption and arrow.ErrInvalid under errors.Is, and its
// message starts with "search: " and names the option and the value.
type Error struct{ base }
