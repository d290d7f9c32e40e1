package metadata_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// divergent lists the vector cases whose expected_error records another
// implementation's behaviour that fstensor deliberately does not share,
// with the reason; for these fstensor must accept the metadata.
var divergent = map[string]string{
	// arrow-rs only reads its own plural key; the spec key is singular.
	"rs-spec-key-permutation": "the spec key `permutation` is read",
	// Arrow C++ refuses the nulls arrow-rs writes; design.md section 2
	// reads them as absent keys so that arrow-rs files open.
	"derived-cpp-reads-arrow-rs-nulls": "null reads as an absent key",
}

// storageOnly lists the invalid cases whose JSON is valid and whose error
// comes from the storage type; the fixedshape tests cover them.
var storageOnly = map[string]bool{"cpp-deserialize-invalid-1": true}

// peerMessage matches the C++ messages fstensor words the same way (with
// the key quoted).
var peerMessage = regexp.MustCompile(`^(\w+) (must (?:be|contain) .*)$`)

func loadCases(t *testing.T) []testvec.Case {
	t.Helper()
	cases, err := testvec.Load("arrow_fixed_shape_tensor.json")
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestVectorsValid drives every valid metadata case of the vectors: the
// logical view derived from the physical metadata, the canonical bytes, the
// byte strides of the spec (asserted where upstream gets them wrong), and
// the parse of every serialized form.
func TestVectorsValid(t *testing.T) {
	cases := testvec.Kind(loadCases(t), "metadata_serialize", "metadata_parse", "metadata_roundtrip",
		"strides", "strides_derived", "to_string", "type_properties", "ipc_roundtrip")
	if len(cases) < 20 {
		t.Fatalf("only %d cases loaded", len(cases))
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			m, err := metadata.FromPhysical(c.PhysicalShape, c.DimNamesPhysical, c.Permutation)
			if err != nil {
				t.Fatalf("FromPhysical(%v, %q, %v): %v", c.PhysicalShape, c.DimNamesPhysical, c.Permutation, err)
			}
			if c.LogicalShape != nil {
				if diff := cmp.Diff([]int(c.LogicalShape), m.Shape(), equateEmpty); diff != "" {
					t.Errorf("logical shape (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(c.DimNamesLogical, m.DimNames()); diff != "" {
					t.Errorf("logical dim names (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff([]int(c.PhysicalShape), m.PhysicalShape(), equateEmpty); diff != "" {
				t.Errorf("physical shape (-want +got):\n%s", diff)
			}
			if c.ExpectedStridesBytes != nil {
				if diff := cmp.Diff([]int(c.ExpectedStridesBytes), m.ByteStrides(c.ByteWidth), equateEmpty); diff != "" {
					t.Errorf("byte strides (-spec +got):\n%s", diff)
				}
			}
			if c.Serialized != nil {
				if got := string(m.AppendJSON(nil)); got != *c.Serialized {
					t.Errorf("AppendJSON = %s, want %s", got, *c.Serialized)
				}
				parsed, err := metadata.Parse([]byte(*c.Serialized))
				if err != nil || !parsed.Equal(m) {
					t.Errorf("Parse(%s) = %v, %v; want %v", *c.Serialized, parsed, err, m)
				}
			}
			if c.SerializedArrowRS != nil {
				parsed, err := metadata.Parse([]byte(*c.SerializedArrowRS))
				if err != nil || !parsed.Equal(m) {
					t.Errorf("Parse(%s) = %v, %v; want %v", *c.SerializedArrowRS, parsed, err, m)
				}
			}
			if c.ListSize != nil {
				if err := m.CheckListSize(*c.ListSize); err != nil {
					t.Errorf("CheckListSize(%d): %v", *c.ListSize, err)
				}
			}
			if c.NDim != nil && m.NDim() != *c.NDim {
				t.Errorf("NDim = %d, want %d", m.NDim(), *c.NDim)
			}
		})
	}
}

// TestVectorsInvalid drives every invalid-metadata case: Parse refuses the
// serialized form, FromPhysical refuses the arguments of a make case, the
// error wraps arrow.ErrInvalid, and where Arrow C++ words the message as
// "<key> must ...", fstensor's says the same about the quoted key.
func TestVectorsInvalid(t *testing.T) {
	cases := testvec.Kind(loadCases(t), "metadata_invalid", "make_invalid")
	if len(cases) < 20 {
		t.Fatalf("only %d cases loaded", len(cases))
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if storageOnly[c.ID] {
				if _, err := metadata.Parse([]byte(*c.Serialized)); err != nil {
					t.Errorf("Parse(%s): %v; the JSON itself is valid", *c.Serialized, err)
				}
				return
			}
			var err error
			switch {
			case c.Kind == "make_invalid":
				_, err = metadata.FromPhysical(c.PhysicalShape, c.DimNamesPhysical, c.Permutation)
			case c.Serialized == nil:
				_, err = metadata.Parse(nil)
			default:
				_, err = metadata.Parse([]byte(*c.Serialized))
			}
			if reason, ok := divergent[c.ID]; ok {
				if err != nil {
					t.Errorf("fstensor accepts this (%s), got %v", reason, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; %s fails with %q", c.ErrorImpl, c.ErrorSubstring)
			}
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
			}
			if sm := peerMessage.FindStringSubmatch(c.ErrorSubstring); sm != nil && strings.HasPrefix(c.ErrorImpl, "arrow-cpp") {
				want := `"` + sm[1] + `" ` + sm[2]
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q (Arrow C++ wording)", err, want)
				}
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		json string
		want metadata.Metadata // ignored when wantErr
		err  bool
	}{
		{name: "0-D", json: `{"shape":[]}`, want: metadata.Metadata{}},
		{name: "size-0", json: `{"shape":[3,0]}`, want: metadata.MustNew([]int{3, 0}, nil, nil)},
		{name: "3-cycle", json: `{"shape":[3,4,2],"permutation":[2,0,1],"dim_names":["b","c","a"]}`,
			want: metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1})},
		{name: "pyarrow identity", json: `{"shape":[3,4],"permutation":[0,1]}`, want: metadata.MustNew([]int{3, 4}, nil, []int{0, 1})},
		{name: "arrow-rs plural and nulls", json: `{"shape":[4,3],"dim_names":null,"permutations":[1,0]}`,
			want: metadata.MustNew([]int{3, 4}, nil, []int{1, 0})},
		{name: "arrow-rs all null", json: `{"shape":[2,3],"dim_names":null,"permutations":null}`, want: metadata.MustNew([]int{2, 3}, nil, nil)},
		{name: "plural null beside singular", json: `{"shape":[4,3],"permutation":[1,0],"permutations":null}`,
			want: metadata.MustNew([]int{3, 4}, nil, []int{1, 0})},
		{name: "unknown keys", json: `{"shape":[2],"future":{"a":[1,2]},"x":null}`, want: metadata.MustNew([]int{2}, nil, nil)},
		{name: "whitespace", json: " {\n\"shape\" : [ 2 , 3 ] }\t", want: metadata.MustNew([]int{2, 3}, nil, nil)},
		{name: "integral float spelling", json: `{"shape":[2.0]}`, err: true},
		{name: "exponent", json: `{"shape":[1e2]}`, err: true},
		{name: "both permutation keys", json: `{"shape":[3,4],"permutation":[1,0],"permutations":[1,0]}`, err: true},
		{name: "repeated key", json: `{"shape":[3],"shape":[4]}`, err: true},
		{name: "trailing data", json: `{"shape":[3]} {}`, err: true},
		{name: "trailing garbage", json: `{"shape":[3]}x`, err: true},
		{name: "not an object", json: `[3,4]`, err: true},
		{name: "empty", json: ``, err: true},
		{name: "no shape", json: `{}`, err: true},
		{name: "null shape", json: `{"shape":null}`, err: true},
		{name: "negative", json: `{"shape":[-1]}`, err: true},
		{name: "huge", json: `{"shape":[18446744073709551615]}`, err: true},
		{name: "overflow", json: `{"shape":[4294967296,4294967296]}`, err: true},
		// 2**32+1 truncated to a 32-bit int would be 1: it must be refused
		// there (out of range) as on 64-bit (beyond the list size).
		{name: "above 32 bits", json: `{"shape":[4294967297]}`, err: true},
		{name: "permutation above 32 bits", json: `{"shape":[3,4],"permutation":[4294967297,0]}`, err: true},
		{name: "max int64", json: `{"shape":[9223372036854775807]}`, err: true},
		{name: "max int64 plus one", json: `{"shape":[9223372036854775808]}`, err: true},
		{name: "beyond list size", json: `{"shape":[65536,65536]}`, err: true},
		{name: "names count", json: `{"shape":[3,4],"dim_names":["x"]}`, err: true},
		{name: "permutation length", json: `{"shape":[3,4],"permutation":[0]}`, err: true},
		{name: "permutation repeat", json: `{"shape":[3,4],"permutation":[1,1]}`, err: true},
		{name: "invalid UTF-8", json: "{\"shape\":[1],\"dim_names\":[\"\xff\"]}", err: true},
		{name: "unterminated", json: `{"shape":[3`, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := metadata.Parse([]byte(tt.json))
			if tt.err {
				if err == nil {
					t.Fatalf("Parse(%s) = %v, want error", tt.json, got)
				}
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%s): %v", tt.json, err)
			}
			if !got.Equal(tt.want) || got.HasPermutation() != tt.want.HasPermutation() {
				t.Errorf("Parse(%s) = %v, want %v", tt.json, got, tt.want)
			}
		})
	}
	big := `{"shape":[1],"pad":"` + strings.Repeat("x", metadata.MaxJSONSize) + `"}`
	if _, err := metadata.Parse([]byte(big)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("Parse of %d bytes: %v, want an error", len(big), err)
	}
}

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name string
		m    metadata.Metadata
		want string
	}{
		{"0-D", metadata.Metadata{}, `{"shape":[]}`},
		{"names", metadata.MustNew([]int{3, 4}, []string{"x", "y"}, nil), `{"shape":[3,4],"dim_names":["x","y"]}`},
		{"identity kept", metadata.MustNew([]int{3, 4}, nil, []int{0, 1}), `{"shape":[3,4],"permutation":[0,1]}`},
		{"3-cycle physical", metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1}),
			`{"shape":[3,4,2],"permutation":[2,0,1],"dim_names":["b","c","a"]}`},
		{"escapes", metadata.MustNew([]int{1, 1, 1}, []string{"a\"b\\c", "tab\tnl\n\x01", "é/✓"}, nil),
			`{"shape":[1,1,1],"dim_names":["a\"b\\c","tab\tnl\n\u0001","é/✓"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(tt.m.AppendJSON(nil))
			if got != tt.want {
				t.Errorf("AppendJSON = %s, want %s", got, tt.want)
			}
			back, err := metadata.Parse([]byte(got))
			if err != nil || !back.Equal(tt.m) {
				t.Errorf("Parse(AppendJSON) = %v, %v; want %v", back, err, tt.m)
			}
			b, err := tt.m.MarshalJSON()
			if err != nil || string(b) != tt.want {
				t.Errorf("MarshalJSON = %s, %v", b, err)
			}
			var u metadata.Metadata
			if err := u.UnmarshalJSON(b); err != nil || !u.Equal(tt.m) {
				t.Errorf("UnmarshalJSON = %v, %v", u, err)
			}
		})
	}
	prefix := []byte("prefix:")
	if got := string(metadata.MustNew([]int{2}, nil, nil).AppendJSON(prefix)); got != `prefix:{"shape":[2]}` {
		t.Errorf("AppendJSON(prefix) = %s", got)
	}
}
