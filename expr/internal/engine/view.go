package engine

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
