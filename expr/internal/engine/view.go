package engine

// viewRows evaluates a View node over rows rows of a (rs elements a row)
// into dense d, elements of type T moved as they are.
func viewRows[T any](ws *workspace, c *cnode, d, a []T, rs, rows int) {
	ws.dims = append(append(ws.dims[:0], rows), c.Shape...)
	ws.stbuf = growSt(ws.stbuf, 2)
	ws.stbuf[0] = append(append(ws.stbuf[0][:0], c.size), denseStrides2(ws, c.Shape)...)
	ws.stbuf[1] = append(append(ws.stbuf[1][:0], rs), c.Strides...)
	ws.sts = append(ws.sts[:0], ws.stbuf[0], ws.stbuf[1])
	w := &ws.w
	w.init(ws.dims, ws.sts)
	for w.next() {
		dd := d[w.off[0] : w.off[0]+w.inner]
		base, s := c.Offset+w.off[1], w.step[1]
		if s == 1 {
			copy(dd, a[base:])
			continue
		}
		for j := range dd {
			dd[j] = a[base+j*s]
		}
	}
}

// concatRows evaluates a Concat node over rows rows, moving bytes.
func concatRows(ws *workspace, c *cnode, d []byte, rows int) {
	wd := c.width()
	post := 1
	for _, s := range c.Shape[c.Axis+1:] {
		post *= s
	}
	outer := 1
	for _, s := range c.Shape[:c.Axis] {
		outer *= s
	}
	run := c.Shape[c.Axis] * post * wd
	at := 0
	for i, a := range c.Args {
		op := ws.cur[c.args[i]]
		in := a.Shape[c.Axis] * post * wd
		for r := range rows {
			for o := range outer {
				src := op.b[r*op.rs*wd+o*in:]
				copy(d[r*c.size*wd+o*run+at:][:in], src[:in])
			}
		}
		at += in
	}
}
