package postgres

// EarlierSteps are the migration steps 1 to v, as a server of version v
// applied them, for tests of an upgrade.
func EarlierSteps(v int) []string { return migrations[:v] }
