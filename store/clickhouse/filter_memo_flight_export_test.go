package clickhouse

// SetSelectiveResolveHook sets selectiveResolveHook until the returned
// function restores it.
func SetSelectiveResolveHook(hook func()) (restore func()) {
	old := selectiveResolveHook
	selectiveResolveHook = hook
	return func() { selectiveResolveHook = old }
}
