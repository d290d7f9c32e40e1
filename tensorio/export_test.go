package tensorio

// SetTestHook makes f run at the start of every Writer.Write ("write")
// and Writer.Close ("close") until the returned function restores the
// previous hook.
func SetTestHook(f func(op string)) (restore func()) {
	old := testHook
	testHook = f
	return func() { testHook = old }
}
