package main

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// result is the median of every run of one benchmark.
type result struct {
	name   string            // without "Benchmark" group and -N suffix
	group  string            // "Materialize", "IPC", ...
	keys   map[string]string // the key=value parts of name
	nsOp   float64
	mbS    float64 // 0 when the benchmark set no bytes
	allocs float64
	runs   int
}

var procsSuffix = regexp.MustCompile(`-\d+$`)

// parseFiles reads Go benchmark lines from files and returns one result
// per benchmark name, in first-seen order, with median figures.
func parseFiles(files []string) ([]*result, error) {
	type acc struct {
		r                 *result
		ns, mb, allocsVal []float64
	}
	var order []*acc
	byName := map[string]*acc{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
				continue
			}
			if _, err := strconv.Atoi(fields[1]); err != nil {
				continue
			}
			full := procsSuffix.ReplaceAllString(strings.TrimPrefix(fields[0], "Benchmark"), "")
			group, name, _ := strings.Cut(full, "/")
			a := byName[full]
			if a == nil {
				a = &acc{r: &result{name: name, group: group, keys: keyValues(name)}}
				byName[full] = a
				order = append(order, a)
			}
			for i := 2; i+1 < len(fields); i += 2 {
				v, err := strconv.ParseFloat(fields[i], 64)
				if err != nil {
					continue
				}
				switch fields[i+1] {
				case "ns/op":
					a.ns = append(a.ns, v)
				case "MB/s":
					a.mb = append(a.mb, v)
				case "allocs/op":
					a.allocsVal = append(a.allocsVal, v)
				}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	out := make([]*result, len(order))
	for i, a := range order {
		a.r.nsOp, a.r.mbS, a.r.allocs, a.r.runs = median(a.ns), median(a.mb), median(a.allocsVal), len(a.ns)
		out[i] = a.r
	}
	return out, nil
}

func keyValues(name string) map[string]string {
	kv := map[string]string{}
	for _, part := range strings.Split(name, "/") {
		if k, v, ok := strings.Cut(part, "="); ok {
			kv[k] = v
		}
	}
	return kv
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// withoutImpl returns name without its impl= part (and what follows).
func withoutImpl(name string) string {
	if i := strings.Index(name, "/impl="); i >= 0 {
		return name[:i]
	}
	return name
}
