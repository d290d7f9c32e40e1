package mmap_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fstensor/fstensor/internal/mmap"
)

func ExampleMap() {
	dir, _ := os.MkdirTemp("", "mmap")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "f")
	_ = os.WriteFile(path, []byte("mapped bytes"), 0o644)

	m, err := mmap.Map(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	fmt.Printf("%s\n", m.Bytes()[:6])
	// Output: mapped
}
