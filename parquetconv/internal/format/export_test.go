package format

// WholeRows is wholeRows, for the tests.
var WholeRows = wholeRows
