package decthings

import (
	"encoding/json"

	"github.com/fstensor/fstensor/metadata"
)

// Rules is a DecthingsTensorRules object: the shape a tensor must have, -1
// standing for any length of that dimension, and the element types allowed.
// Its JSON form is {"shape":[-1,3],"allowedTypes":["f32","u8"]}.
type Rules struct {
	Shape        []int  `json:"shape"`
	AllowedTypes []Type `json:"allowedTypes"`
}

// ParseRules reads the JSON form of Rules and validates it (Rules.Validate).
// Errors wrap arrow.ErrInvalid.
func ParseRules(data []byte) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(data, &r); err != nil {
		return Rules{}, wrap(err, "rules")
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// Validate checks the rules themselves: at most MaxDims dimensions, each -1
// or non-negative, and every allowed type valid. Errors wrap
// arrow.ErrInvalid.
func (r Rules) Validate() error {
	if len(r.Shape) > MaxDims {
		return errorf("rules: shape has %d dimensions, more than %d", len(r.Shape), MaxDims)
	}
	for i, d := range r.Shape {
		if d < -1 {
			return errorf("rules: shape %v: dimension %d is %d; only -1 may be negative", r.Shape, i, d)
		}
	}
	for _, t := range r.AllowedTypes {
		if !t.Valid() {
			return errorf("rules: invalid allowed type %d", uint8(t))
		}
	}
	return nil
}

// Check reports whether a tensor of type typ and shape shape follows the
// rules: same number of dimensions, each equal to the rule's or the rule's is
// -1, and typ among AllowedTypes. The error, wrapping arrow.ErrInvalid, says
// what differs.
func (r Rules) Check(typ Type, shape []int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	allowed := false
	for _, t := range r.AllowedTypes {
		allowed = allowed || t == typ
	}
	if !allowed {
		return errorf("type %s is not among the allowed types %v", typ, r.AllowedTypes)
	}
	if len(shape) != len(r.Shape) {
		return errorf("shape %s has %d dimensions, the rules want %d (%v)", metadata.FormatShape(shape), len(shape), len(r.Shape), r.Shape)
	}
	for i, d := range r.Shape {
		if d != -1 && shape[i] != d {
			return errorf("shape %s: dimension %d is %d, the rules want %d", metadata.FormatShape(shape), i, shape[i], d)
		}
	}
	return nil
}

// CheckTensor is Check of t's type and shape.
func (r Rules) CheckTensor(t *Tensor) error { return r.Check(t.Type, t.Shape) }
