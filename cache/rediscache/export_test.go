package rediscache

// Resent returns how many commands c's client sent again after meeting a
// connection the server had closed.
func Resent(c *Cache) uint64 { return c.shards.resent.Load() }

// Key returns the Redis key of key in c.
func Key(c *Cache, key string) string { return c.key(key) }
