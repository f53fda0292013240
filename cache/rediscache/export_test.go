package rediscache

// Resent returns how many commands c's client sent again after meeting a
// connection the server had closed.
func Resent(c *Cache) uint64 { return c.shards.resent.Load() }
