package tensorio_test

import (
	"testing"

	"github.com/fstensor/fstensor/tensorio"
)

// FuzzParseHiveDir reads arbitrary directory names as Hive partitions: no
// panic, and a name read is written back (HiveDirName) as a name that
// reads the same. Seeds are in testdata/fuzz/FuzzParseHiveDir.
func FuzzParseHiveDir(f *testing.F) {
	f.Add("label=3")
	f.Fuzz(func(t *testing.T, name string) {
		key, value, null, ok, err := tensorio.ParseHiveDir(name)
		if err != nil || !ok {
			if key != "" || value != "" || null || ok && err != nil {
				t.Fatalf("ParseHiveDir(%q) = %q, %q, %v, %v, %v: values beside a failure", name, key, value, null, ok, err)
			}
			return
		}
		again := tensorio.HiveDirName(key, value, null)
		k2, v2, n2, ok2, err := tensorio.ParseHiveDir(again)
		if err != nil || !ok2 || k2 != key || n2 != null || !null && v2 != value {
			t.Fatalf("%q -> (%q, %q, %v) -> %q -> (%q, %q, %v, %v, %v)", name, key, value, null, again, k2, v2, n2, ok2, err)
		}
	})
}
