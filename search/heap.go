package search

import (
	"math"
	"slices"
)

// Hit is one row found by a search: its index over all batches (counting
// from 0) and its score under the metric (a similarity for Dot and
// Cosine, a distance for L2 and SquaredL2).
type Hit struct {
	Row   int64
	Score float64
}

// item is a heap entry: key is larger for nearer rows (the score, or the
// negated distance); NaN keys are the farthest of all.
type item struct {
	key float64
	row int64
}

// worse reports whether a ranks after b: a smaller key, or an equal key
// and a higher row; NaN ranks after every number.
func worse(a, b item) bool {
	an, bn := math.IsNaN(a.key), math.IsNaN(b.key)
	switch {
	case an != bn:
		return an
	case !an && a.key != b.key:
		return a.key < b.key
	}
	return a.row > b.row
}

// topHeap keeps the k best items seen, the worst of them at index 0.
type topHeap struct {
	k     int
	items []item
}

// push offers an item; it is kept when fewer than k are held or it ranks
// before the worst held.
func (h *topHeap) push(it item) {
	if len(h.items) < h.k {
		h.items = append(h.items, it)
		h.up(len(h.items) - 1)
		return
	}
	if h.k == 0 || !worse(h.items[0], it) {
		return
	}
	h.items[0] = it
	h.down(0)
}

// threshold returns the worst key held and whether k items are held.
func (h *topHeap) threshold() (float64, bool) {
	if h.k == 0 || len(h.items) < h.k {
		return 0, false
	}
	return h.items[0].key, true
}

func (h *topHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h.items[i], h.items[p]) {
			return
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *topHeap) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l
		if r := l + 1; r < n && worse(h.items[r], h.items[l]) {
			w = r
		}
		if !worse(h.items[w], h.items[i]) {
			return
		}
		h.items[i], h.items[w] = h.items[w], h.items[i]
		i = w
	}
}

// sorted returns the items held, best first.
func (h *topHeap) sorted() []item {
	s := slices.Clone(h.items)
	slices.SortFunc(s, func(a, b item) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return s
}
