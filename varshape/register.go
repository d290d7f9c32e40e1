package varshape

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// prototype is the instance held by arrow-go's extension registry; only
// its Deserialize method is used.
var prototype = MustNewType(arrow.PrimitiveTypes.Float32, 1, Options{})

var registerErr = Register()

// Register registers the type under [ExtensionName] in arrow-go's global
// extension registry, so that IPC, Parquet and C Data readers rebuild
// variable-shape columns as [Array]. Importing the package calls it once.
// It returns nil when this package holds the name and an error (never a
// panic) when another implementation already does.
func Register() error {
	if cur := arrow.GetExtensionType(ExtensionName); cur != nil {
		if _, ours := cur.(*Type); ours {
			return nil
		}
		return fmt.Errorf("varshape: extension name %q is already registered by %T; readers will not produce varshape arrays", ExtensionName, cur)
	}
	if err := arrow.RegisterExtensionType(prototype); err != nil {
		return fmt.Errorf("varshape: %w", err)
	}
	return nil
}

// Registered returns nil when this package's type is the one registered
// under [ExtensionName], and otherwise the reason it is not.
func Registered() error {
	if _, ours := arrow.GetExtensionType(ExtensionName).(*Type); ours {
		return nil
	}
	if registerErr != nil {
		return registerErr
	}
	return fmt.Errorf("varshape: extension name %q is not registered", ExtensionName)
}

// TypeOf returns dt as a variable-shape tensor type, and whether it is one.
func TypeOf(dt arrow.DataType) (*Type, bool) {
	t, ok := dt.(*Type)
	return t, ok && t != nil
}
